package binaries

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEmbeddedVersions(t *testing.T) {
	v, err := EmbeddedVersions()
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]string{"kubernetes": v.Kubernetes, "etcd": v.Etcd} {
		if !strings.HasPrefix(got, "v") || strings.Count(got, ".") != 2 {
			t.Errorf("%s version %q is not vX.Y.Z", name, got)
		}
	}
}

func TestWriteModule(t *testing.T) {
	dir := t.TempDir()
	if err := writeModule(dir); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(gomod), "module ") {
		t.Errorf("go.mod starts %q", strings.SplitN(string(gomod), "\n", 2)[0])
	}
	for _, name := range All {
		main, err := os.ReadFile(filepath.Join(dir, "cmd", name, "main.go"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(main), "package main") {
			t.Errorf("cmd/%s/main.go is not a main package", name)
		}
	}
}

func TestVersionLDFlags(t *testing.T) {
	got := versionLDFlags("v1.37.2")
	for _, want := range []string{
		"-X k8s.io/component-base/version.gitVersion=v1.37.2",
		"-X k8s.io/component-base/version.gitMajor=1",
		"-X k8s.io/component-base/version.gitMinor=37",
		"-X k8s.io/client-go/pkg/version.gitVersion=v1.37.2",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("ldflags %q lack %q", got, want)
		}
	}
}

// fakePrograms writes executable files named names into a new folder.
func fakePrograms(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestFindOrder checks that KUBECLIENT_CONTROLPLANE_DIR wins over
// KUBEBUILDER_ASSETS, which wins over the cache, program by program.
func TestFindOrder(t *testing.T) {
	own := fakePrograms(t, Etcd, KubeControllerManager)
	assets := fakePrograms(t, Etcd, KubeAPIServer)
	cacheRoot := t.TempDir()
	t.Setenv(DirEnv, own)
	t.Setenv(KubebuilderAssetsEnv, assets)
	t.Setenv(CacheEnv, cacheRoot)

	paths, err := Find(context.Background(), nil, All...)
	if err != nil {
		t.Fatal(err)
	}
	want := Paths{
		Etcd:                  filepath.Join(own, Etcd),
		KubeAPIServer:         filepath.Join(assets, KubeAPIServer),
		KubeControllerManager: filepath.Join(own, KubeControllerManager),
	}
	for name, p := range want {
		if paths[name] != p {
			t.Errorf("%s = %q, want %q", name, paths[name], p)
		}
	}
}

// TestFindUsesCache checks that a program already in the cache is taken
// from there without a build.
func TestFindUsesCache(t *testing.T) {
	t.Setenv(DirEnv, "")
	t.Setenv(KubebuilderAssetsEnv, "")
	t.Setenv(CacheEnv, t.TempDir())
	dir, err := CacheDir()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, Etcd), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	paths, err := Find(context.Background(), nil, Etcd)
	if err != nil {
		t.Fatal(err)
	}
	if paths[Etcd] != filepath.Join(dir, Etcd) {
		t.Errorf("etcd = %q, want the cached %q", paths[Etcd], filepath.Join(dir, Etcd))
	}
}

func TestFindRejectsUnknownProgram(t *testing.T) {
	if _, err := Find(context.Background(), nil, "kubelet"); err == nil {
		t.Error("Find(kubelet) succeeded")
	}
}
