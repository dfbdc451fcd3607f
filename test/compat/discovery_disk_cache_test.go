package compat

import (
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/discovery/cached/disk"
	"github.com/kubeclient/client-go/rest"
)

// README: "discovery/cached/disk: discovery and HTTP cache files are
// written with mode 0640 (client-go: 0660, group-writable)".

// TestDiskCachedDiscovery: a program (kubectl's way) discovers the
// server's groups through a disk cache, then a second client over the same
// directories discovers them again. The second answer comes from the
// cache, as on client-go; the files are 0640, the change the README
// states.
func TestDiskCachedDiscovery(t *testing.T) {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api":
			_ = json.NewEncoder(w).Encode(&metav1.APIVersions{TypeMeta: metav1.TypeMeta{Kind: "APIVersions"}, Versions: []string{"v1"}})
		case "/apis":
			_ = json.NewEncoder(w).Encode(&metav1.APIGroupList{TypeMeta: metav1.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"}})
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()
	discoveryDir, httpDir := t.TempDir(), t.TempDir()

	var versions [2][]string
	for i := range versions {
		client, err := disk.NewCachedDiscoveryClientForConfig(&rest.Config{Host: srv.URL}, discoveryDir, httpDir, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		groups, err := client.ServerGroups()
		if err != nil {
			t.Fatal(err)
		}
		versions[i] = metav1.ExtractGroupVersions(groups)
		if i == 0 && requests.Load() == 0 {
			t.Fatal("the first discovery did not reach the server")
		}
	}
	afterFirst := requests.Load()
	if len(versions[0]) != 1 || versions[0][0] != "v1" || len(versions[1]) != 1 || versions[1][0] != "v1" {
		t.Errorf("group versions %v, want [v1] twice", versions)
	}
	client, err := disk.NewCachedDiscoveryClientForConfig(&rest.Config{Host: srv.URL}, discoveryDir, httpDir, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.ServerGroups(); err != nil {
		t.Fatal(err)
	}
	if n := requests.Load(); n != afterFirst {
		t.Errorf("a fresh cache was not used: %d more requests", n-afterFirst)
	}

	files := 0
	err = filepath.WalkDir(discoveryDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		files++
		info, err := d.Info()
		if err != nil {
			return err
		}
		if mode := info.Mode().Perm(); mode != 0o640 {
			t.Errorf("%s: mode %o, want 0640", path, mode)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Error("no discovery cache file was written")
	}
}
