package clientcmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAuthLoaders(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "auth.json", `{"User":"alice","Password":"pw","CAFile":"/ca","BearerToken":"tok"}`)

	for name, loader := range map[string]AuthLoader{
		"default":   NewDefaultAuthLoader(),
		"prompting": NewPromptingAuthLoader(strings.NewReader("")),
	} {
		info, err := loader.LoadAuth(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if info.User != "alice" || info.Password != "pw" || info.CAFile != "/ca" || info.BearerToken != "tok" {
			t.Errorf("%s: got %+v", name, info)
		}
	}

	if _, err := NewDefaultAuthLoader().LoadAuth(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Errorf("default loader, missing file: %v", err)
	}

	// The prompting loader asks when the file is missing; the password
	// needs a terminal, so here it fails and writes nothing.
	missing := filepath.Join(dir, "new.json")
	if _, err := NewPromptingAuthLoader(strings.NewReader("bob\n")).LoadAuth(missing); err == nil {
		t.Errorf("prompting without a terminal must fail")
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("file written after a failed prompt")
	}

	// An empty reader fails at the username.
	if _, err := NewPromptingAuthLoader(strings.NewReader("")).Prompt(); err == nil {
		t.Errorf("prompt from an empty reader must fail")
	}
}
