package compat

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// The test binary doubles as an exec credential plugin: with
// compatPluginEnv set, TestMain acts as the plugin instead of running
// tests (see exec_plugin_test.go).
const compatPluginEnv = "COMPAT_TEST_PLUGIN"

func TestMain(m *testing.M) {
	if os.Getenv(compatPluginEnv) != "" {
		os.Exit(runPlugin())
	}
	os.Exit(m.Run())
}

// runPlugin notes its start in PLUGIN_STARTS, waits until the file
// PLUGIN_RELEASE exists (a slow cloud token command) and prints a token.
func runPlugin() int {
	f, err := os.OpenFile(os.Getenv("PLUGIN_STARTS"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	_, err = f.WriteString("started\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	for {
		if _, err := os.Stat(os.Getenv("PLUGIN_RELEASE")); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Println(`{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"plugin-token"}}`)
	return 0
}

// countLines returns the number of lines in the file at path, 0 if it
// does not exist.
func countLines(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "\n")
}
