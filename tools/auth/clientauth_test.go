package auth

import (
	"os"
	"path/filepath"
	"testing"

	restclient "github.com/kubeclient/client-go/rest"
)

func writeInfo(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "auth-info")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadFromFile(t *testing.T) {
	yes := true
	tests := []struct {
		name    string
		content string
		want    Info
		wantErr bool
	}{
		{name: "basic auth", content: `{"User":"alice","Password":"pw","CAFile":"/ca.crt"}`, want: Info{User: "alice", Password: "pw", CAFile: "/ca.crt"}},
		{name: "cert", content: `{"CertFile":"/c.crt","KeyFile":"/c.key","Insecure":true}`, want: Info{CertFile: "/c.crt", KeyFile: "/c.key", Insecure: &yes}},
		{name: "token", content: `{"BearerToken":"tok"}`, want: Info{BearerToken: "tok"}},
		{name: "empty object", content: `{}`, want: Info{}},
		{name: "not json", content: `User: alice`, wantErr: true},
		{name: "wrong type", content: `{"User": 3}`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := LoadFromFile(writeInfo(t, tt.content))
			if tt.wantErr {
				if err == nil {
					t.Fatalf("LoadFromFile succeeded: %+v", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.User != tt.want.User || got.Password != tt.want.Password || got.CAFile != tt.want.CAFile ||
				got.CertFile != tt.want.CertFile || got.KeyFile != tt.want.KeyFile || got.BearerToken != tt.want.BearerToken ||
				(got.Insecure == nil) != (tt.want.Insecure == nil) || (got.Insecure != nil && *got.Insecure != *tt.want.Insecure) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestLoadFromFileMissing(t *testing.T) {
	_, err := LoadFromFile(filepath.Join(t.TempDir(), "absent"))
	if !os.IsNotExist(err) {
		t.Fatalf("error = %v, want a not-exist error", err)
	}
}

func TestMergeWithConfig(t *testing.T) {
	base := restclient.Config{Host: "https://k8s:6443", Username: "old", BearerToken: "old-token"}
	base.Insecure = true
	base.CAFile = "/old-ca"

	no := false
	tests := []struct {
		name         string
		info         Info
		wantInsecure bool
	}{
		{name: "insecure unset keeps config", info: Info{User: "alice", Password: "pw"}, wantInsecure: true},
		{name: "insecure false overrides", info: Info{BearerToken: "t", Insecure: &no}, wantInsecure: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.info.MergeWithConfig(base)
			if err != nil {
				t.Fatal(err)
			}
			if got.Host != base.Host {
				t.Errorf("Host changed to %q", got.Host)
			}
			if got.Username != tt.info.User || got.Password != tt.info.Password || got.BearerToken != tt.info.BearerToken ||
				got.CAFile != tt.info.CAFile || got.CertFile != tt.info.CertFile || got.KeyFile != tt.info.KeyFile {
				t.Errorf("credentials not taken from info: %+v", got)
			}
			if got.Insecure != tt.wantInsecure {
				t.Errorf("Insecure = %t, want %t", got.Insecure, tt.wantInsecure)
			}
			if base.Username != "old" {
				t.Errorf("the input config was modified")
			}
		})
	}
}

func TestComplete(t *testing.T) {
	for _, tt := range []struct {
		info Info
		want bool
	}{
		{Info{}, false},
		{Info{Password: "pw", CAFile: "/ca", KeyFile: "/k"}, false},
		{Info{User: "u"}, true},
		{Info{CertFile: "/c"}, true},
		{Info{BearerToken: "t"}, true},
	} {
		if got := tt.info.Complete(); got != tt.want {
			t.Errorf("%+v.Complete() = %t, want %t", tt.info, got, tt.want)
		}
	}
}
