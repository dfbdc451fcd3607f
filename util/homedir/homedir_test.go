package homedir

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestHomeDirOnThisPlatform(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("covered by TestWindowsHomeDir")
	}
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	if got := HomeDir(); got != dir {
		t.Errorf("HomeDir() = %q, want $HOME %q", got, dir)
	}
	t.Setenv("HOME", "")
	if got := HomeDir(); got != "" {
		t.Errorf("HomeDir() = %q with empty $HOME, want empty", got)
	}
}

func TestWindowsHomeDir(t *testing.T) {
	root := t.TempDir()
	mkdir := func(name string, mode os.FileMode) string {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	withConfig := func(name string) string {
		p := mkdir(name, 0o755)
		if err := os.MkdirAll(filepath.Join(p, ".kube"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, ".kube", "config"), []byte("apiVersion: v1\nkind: Config\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}

	homeCfg := withConfig("home-with-config")
	profileCfg := withConfig("profile-with-config")
	writable := mkdir("writable", 0o755)
	writable2 := mkdir("writable2", 0o755)
	readOnly := mkdir("read-only", 0o555)
	t.Cleanup(func() { os.Chmod(readOnly, 0o755) })
	missing := filepath.Join(root, "missing")
	file := filepath.Join(root, "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	drive, path := filepath.Dir(writable2), string(filepath.Separator)+filepath.Base(writable2)

	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{name: "nothing set", env: nil, want: ""},
		{name: "HOME with config wins", env: map[string]string{"HOME": homeCfg, "USERPROFILE": profileCfg}, want: homeCfg},
		{name: "config beats writability", env: map[string]string{"HOME": writable, "USERPROFILE": profileCfg}, want: profileCfg},
		{name: "drive+path checked for config before USERPROFILE",
			env:  map[string]string{"HOMEDRIVE": filepath.Dir(homeCfg), "HOMEPATH": string(filepath.Separator) + filepath.Base(homeCfg), "USERPROFILE": profileCfg},
			want: homeCfg},
		{name: "first writable", env: map[string]string{"HOME": readOnly, "USERPROFILE": writable}, want: writable},
		{name: "USERPROFILE before drive+path for writability", env: map[string]string{"HOMEDRIVE": drive, "HOMEPATH": path, "USERPROFILE": writable}, want: writable},
		{name: "drive+path used", env: map[string]string{"HOME": missing, "HOMEDRIVE": drive, "HOMEPATH": path}, want: writable2},
		{name: "drive without path ignored", env: map[string]string{"HOMEDRIVE": drive}, want: ""},
		{name: "first existing when none writable", env: map[string]string{"HOME": missing, "USERPROFILE": file}, want: file},
		{name: "first set when none exists", env: map[string]string{"HOME": missing, "USERPROFILE": missing + "2"}, want: missing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string { return tt.env[k] }
			if got := windowsHomeDir(getenv, os.Stat); got != tt.want {
				t.Errorf("windowsHomeDir() = %q, want %q", got, tt.want)
			}
		})
	}
}
