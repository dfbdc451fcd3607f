package pemfile

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func TestParse(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	bad := filepath.Join(dir, "bad")
	if err := os.WriteFile(good, []byte("42"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	atoi := func(b []byte) (int, error) { return strconv.Atoi(string(b)) }

	if got, err := Parse(good, "error reading", atoi); err != nil || got != 42 {
		t.Errorf("good file: got %v, %v", got, err)
	}
	_, err := Parse(bad, "error reading number file", atoi)
	want := `error reading number file ` + bad + `: strconv.Atoi: parsing "x": invalid syntax`
	if err == nil || err.Error() != want {
		t.Errorf("bad file: got %v, want %s", err, want)
	}
	if _, err := Parse(filepath.Join(dir, "missing"), "error reading", atoi); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: got %v, want a not-exist error", err)
	}
}
