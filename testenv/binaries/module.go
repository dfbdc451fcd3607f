package binaries

import (
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// moduleFS holds the Go module that builds the programs. Its files carry a
// .txt suffix: a file named go.mod would make the folder a module of its
// own, which could be neither embedded nor shipped with testenv, and the
// main packages must not be compiled as part of testenv.
//
//go:embed module/go.mod.txt module/go.sum.txt module/*.go.txt
var moduleFS embed.FS

// Program names.
const (
	Etcd                  = "etcd"
	KubeAPIServer         = "kube-apiserver"
	KubeControllerManager = "kube-controller-manager"
)

// All lists every program the package can provide.
var All = []string{Etcd, KubeAPIServer, KubeControllerManager}

// Versions are the releases the embedded module builds.
type Versions struct {
	Kubernetes string // k8s.io/kubernetes, e.g. v1.37.2
	Etcd       string // go.etcd.io/etcd/server/v3
}

// EmbeddedVersions reads the versions from the embedded go.mod.
func EmbeddedVersions() (Versions, error) {
	data, err := moduleFS.ReadFile("module/go.mod.txt")
	if err != nil {
		return Versions{}, err
	}
	find := func(path string) (string, error) {
		re := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(path) + `\s+(v\S+)`)
		m := re.FindSubmatch(data)
		if m == nil {
			return "", fmt.Errorf("embedded go.mod does not require %s", path)
		}
		return string(m[1]), nil
	}
	var v Versions
	if v.Kubernetes, err = find("k8s.io/kubernetes"); err != nil {
		return v, err
	}
	if v.Etcd, err = find("go.etcd.io/etcd/server/v3"); err != nil {
		return v, err
	}
	return v, nil
}

// writeModule writes the embedded module to dir: go.mod, go.sum and
// cmd/<program>/main.go for every program.
func writeModule(dir string) error {
	files := map[string]string{
		"module/go.mod.txt": "go.mod",
		"module/go.sum.txt": "go.sum",
	}
	for _, name := range All {
		files["module/"+name+".go.txt"] = filepath.Join("cmd", name, "main.go")
	}
	for from, to := range files {
		data, err := moduleFS.ReadFile(from)
		if err != nil {
			return err
		}
		path := filepath.Join(dir, to)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
