package tlsfiles

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(file, []byte("from file"), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")

	inline, fromFile, none := []byte("inline"), []byte(nil), []byte(nil)
	if err := Load(Field{&inline, file}, Field{&fromFile, file}, Field{&none, ""}); err != nil {
		t.Fatal(err)
	}
	if string(inline) != "inline" || string(fromFile) != "from file" || none != nil {
		t.Errorf("got %q %q %v", inline, fromFile, none)
	}

	failed, later := []byte(nil), []byte(nil)
	err := Load(Field{&failed, missing}, Field{&later, file})
	if err == nil {
		t.Fatal("a missing file is no error")
	}
	if failed == nil || len(failed) != 0 || later != nil {
		t.Errorf("after the error: failed %v (want empty, non-nil), later %q (want untouched)", failed, later)
	}
}
