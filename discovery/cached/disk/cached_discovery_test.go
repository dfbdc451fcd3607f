package disk

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/discovery"
	"github.com/kubeclient/client-go/discovery/cached/internal/apiservertest"
)

func newDiskClient(t *testing.T, s *apiservertest.Server, dir string, ttl time.Duration) *CachedDiscoveryClient {
	t.Helper()
	c, err := NewCachedDiscoveryClientForConfig(s.Config(), dir, "", ttl)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// ageFiles sets the modification time of every file under dir to age ago.
func ageFiles(t *testing.T, dir string, age time.Duration) {
	t.Helper()
	past := time.Now().Add(-age)
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		return os.Chtimes(path, past, past)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestFilesWrittenInKubernetesLayout(t *testing.T) {
	for _, aggregated := range []bool{true, false} {
		s := apiservertest.New(t, aggregated, apiservertest.CoreAndApps())
		dir := t.TempDir()
		c := newDiskClient(t, s, dir, time.Hour)
		if _, _, err := c.ServerGroupsAndResources(); err != nil {
			t.Fatal(err)
		}
		for file, kind := range map[string]string{
			"servergroups.json":                 "APIGroupList",
			"v1/serverresources.json":           "APIResourceList",
			"apps/v1/serverresources.json":      "APIResourceList",
			"apps/v1beta2/serverresources.json": "APIResourceList",
		} {
			data, err := os.ReadFile(filepath.Join(dir, file))
			if err != nil {
				t.Errorf("aggregated=%v: %v", aggregated, err)
				continue
			}
			var tm metav1.TypeMeta
			if err := json.Unmarshal(data, &tm); err != nil || tm.Kind != kind || tm.APIVersion != "v1" {
				t.Errorf("%s: type meta %+v (%v), want v1 %s", file, tm, err, kind)
			}
		}
	}
}

func TestFreshFilesServedFromDiskAcrossClients(t *testing.T) {
	s := apiservertest.New(t, true, apiservertest.CoreAndApps())
	dir := t.TempDir()
	first := newDiskClient(t, s, dir, time.Hour)
	if _, _, err := first.ServerGroupsAndResources(); err != nil {
		t.Fatal(err)
	}
	if !first.Fresh() {
		t.Error("Fresh() = false although every file used was written by this client")
	}
	requests := s.Total()

	// A new process: nothing in memory, everything on disk.
	second := newDiskClient(t, s, dir, time.Hour)
	_, lists, err := second.ServerGroupsAndResources()
	if err != nil {
		t.Fatal(err)
	}
	if len(lists) != 3 {
		t.Errorf("got %d resource lists from disk, want 3", len(lists))
	}
	if got := s.Total(); got != requests {
		t.Errorf("the second client made %d requests, want 0", got-requests)
	}
	if second.Fresh() {
		t.Error("Fresh() = true although the files came from another client")
	}
}

func TestExpiredFilesRefetched(t *testing.T) {
	s := apiservertest.New(t, false, apiservertest.CoreAndApps())
	dir := t.TempDir()
	if _, _, err := newDiskClient(t, s, dir, time.Hour).ServerGroupsAndResources(); err != nil {
		t.Fatal(err)
	}
	ageFiles(t, dir, 2*time.Hour)
	s.SetGroups(append(apiservertest.CoreAndApps(), apiservertest.CronTabCRD()))

	c := newDiskClient(t, s, dir, time.Hour)
	groups, err := c.ServerGroups()
	if err != nil {
		t.Fatal(err)
	}
	if len(groups.Groups) != 3 {
		t.Errorf("got %d groups, want 3 (core, apps and the new CRD group)", len(groups.Groups))
	}
	if got := s.Count("/apis"); got != 2 {
		t.Errorf("/apis fetched %d times, want 2 (the file had expired)", got)
	}
	info, err := os.Stat(filepath.Join(dir, "servergroups.json"))
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(info.ModTime()) > time.Minute {
		t.Error("the expired file was not rewritten")
	}
	if !c.Fresh() {
		t.Error("Fresh() = false after refetching")
	}
}

func TestInvalidateIgnoresOtherClientsFiles(t *testing.T) {
	s := apiservertest.New(t, true, apiservertest.CoreAndApps())
	dir := t.TempDir()
	if _, err := newDiskClient(t, s, dir, time.Hour).ServerResourcesForGroupVersion("apps/v1"); err != nil {
		t.Fatal(err)
	}
	s.SetGroups(append(apiservertest.CoreAndApps(), apiservertest.CronTabCRD()))

	c := newDiskClient(t, s, dir, time.Hour)
	if _, err := c.ServerResourcesForGroupVersion("apps/v1"); err != nil {
		t.Fatal(err)
	}
	if c.Fresh() {
		t.Fatal("Fresh() = true after reading another client's file")
	}
	c.Invalidate()
	if !c.Fresh() {
		t.Error("Fresh() = false right after Invalidate")
	}
	before := s.Count("/apis")
	groups, err := c.ServerGroups()
	if err != nil {
		t.Fatal(err)
	}
	if len(groups.Groups) != 3 || s.Count("/apis") != before+1 {
		t.Errorf("after Invalidate: %d groups, %d /apis requests; want the CRD group, fetched once", len(groups.Groups), s.Count("/apis")-before)
	}
	// The file is now ours: used again without a request.
	if _, err := c.ServerGroups(); err != nil {
		t.Fatal(err)
	}
	if s.Count("/apis") != before+1 {
		t.Error("the client's own file was not used after Invalidate")
	}
	if !c.Fresh() {
		t.Error("Fresh() = false although only own files were used")
	}
}

func TestUnreadableFileRefetched(t *testing.T) {
	s := apiservertest.New(t, false, apiservertest.CoreAndApps())
	dir := t.TempDir()
	for _, content := range []string{"{not json", `{"kind":"Status","apiVersion":"v1"}`} {
		if err := os.WriteFile(filepath.Join(dir, "servergroups.json"), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		before := s.Count("/apis")
		groups, err := newDiskClient(t, s, dir, time.Hour).ServerGroups()
		if err != nil || len(groups.Groups) != 2 {
			t.Fatalf("ServerGroups over %q = %v, %v", content, groups, err)
		}
		if s.Count("/apis") != before+1 {
			t.Errorf("file %q was trusted", content)
		}
	}
}

func TestEmptyDiscoveryDirIsCurrentDirectory(t *testing.T) {
	s := apiservertest.New(t, true, apiservertest.CoreAndApps())
	dir := t.TempDir()
	t.Chdir(dir)
	if _, err := newDiskClient(t, s, "", time.Hour).ServerGroups(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "servergroups.json")); err != nil {
		t.Errorf("servergroups.json not written in the current directory: %v", err)
	}
}

func TestPassThroughAndInterfaces(t *testing.T) {
	s := apiservertest.New(t, true, apiservertest.CoreAndApps())
	c := newDiskClient(t, s, t.TempDir(), time.Hour)
	var _ discovery.CachedDiscoveryInterface = c
	if v, err := c.ServerVersion(); err != nil || v.Minor != "37" {
		t.Errorf("ServerVersion = %v, %v", v, err)
	}
	if c.WithLegacy() != discovery.DiscoveryInterface(c) {
		t.Error("WithLegacy did not return the client")
	}
	pref, err := c.ServerPreferredResources()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range pref {
		if l.GroupVersion == "apps/v1beta2" && len(l.APIResources) > 0 {
			t.Error("ServerPreferredResources returned the non-preferred apps/v1beta2")
		}
	}
	if _, err := NewCachedDiscoveryClientForConfig(nil, "", "", 0); err == nil {
		t.Error("a nil config was accepted")
	}
}

func TestWithContextFlavour(t *testing.T) {
	s := apiservertest.New(t, true, apiservertest.CoreAndApps())
	dir := t.TempDir()
	c := newDiskClient(t, s, dir, time.Hour)
	var cached discovery.CachedDiscoveryInterfaceWithContext = c
	ctx := t.Context()
	if _, lists, err := cached.ServerGroupsAndResourcesWithContext(ctx); err != nil || len(lists) != 3 {
		t.Fatalf("ServerGroupsAndResourcesWithContext = %d lists, %v", len(lists), err)
	}
	if _, err := cached.ServerPreferredNamespacedResourcesWithContext(ctx); err != nil {
		t.Error(err)
	}
	paths, err := cached.OpenAPIV3WithContext(ctx).PathsWithContext(ctx)
	if err != nil || len(paths) != 3 {
		t.Errorf("OpenAPI v3 paths = %v, %v", paths, err)
	}
	if cached.WithLegacyWithContext(ctx) != discovery.DiscoveryInterfaceWithContext(c) {
		t.Error("WithLegacyWithContext did not return the client")
	}
	if !cached.FreshWithContext(ctx) {
		t.Error("not fresh")
	}
	requests := s.Total()
	cached.InvalidateWithContext(ctx)
	if _, err := cached.ServerGroupsWithContext(ctx); err != nil {
		t.Fatal(err)
	}
	if s.Total() == requests {
		t.Error("InvalidateWithContext did not invalidate the in-memory layer")
	}
}

type cancelRecorder struct {
	http.RoundTripper
	cancelled *http.Request
}

func (c *cancelRecorder) CancelRequest(req *http.Request) { c.cancelled = req }

func TestCancelRequestForwarded(t *testing.T) {
	inner := &cancelRecorder{RoundTripper: http.DefaultTransport}
	rt := newCacheRoundTripper(t.TempDir(), inner).(*cacheRoundTripper)
	req, _ := http.NewRequest(http.MethodGet, "http://example.invalid/", nil)
	rt.CancelRequest(req)
	if inner.cancelled != req {
		t.Error("CancelRequest was not forwarded")
	}
	// A round tripper without CancelRequest only gets logged about.
	newCacheRoundTripper(t.TempDir(), http.DefaultTransport).(*cacheRoundTripper).CancelRequest(req)
}
