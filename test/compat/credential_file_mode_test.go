package compat

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kubeclient/client-go/tools/clientcmd"
	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// README: "Credential files: clientcmd.WriteToFile (and so ModifyConfig),
// keyutil.WriteKey and the private-key writers of util/cert leave the
// file at mode 0600 after every write".

// TestWriteKubeconfigOverLooseFile: a program rewrites a kubeconfig that
// exists with mode 0644. It reads back what it wrote, as on client-go; the
// file is now 0600, the change the README states.
func TestWriteKubeconfigOverLooseFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(path, []byte("apiVersion: v1\nkind: Config\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil { // whatever the umask
		t.Fatal(err)
	}
	cfg := clientcmdapi.NewConfig()
	cfg.AuthInfos["me"] = &clientcmdapi.AuthInfo{Token: "secret-token"}
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	back, err := clientcmd.LoadFromFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.AuthInfos["me"] == nil || back.AuthInfos["me"].Token != "secret-token" {
		t.Errorf("read back %+v, want the token written", back.AuthInfos["me"])
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if mode := info.Mode().Perm(); mode != 0o600 {
		t.Errorf("mode %o, want 0600", mode)
	}
}
