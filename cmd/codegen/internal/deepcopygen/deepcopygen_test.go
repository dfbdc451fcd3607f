package deepcopygen

import "testing"

func TestRelativeImport(t *testing.T) {
	tests := []struct {
		module, pkg, want string
		wantErr           bool
	}{
		{"example.com/m", "example.com/m/apis/v1", "apis/v1", false},
		{"example.com/m/generated", "example.com/m/apis/stable/v1", "../apis/stable/v1", false},
		{"example.com/m/a/b", "example.com/m/apis/v1", "../../apis/v1", false},
		{"example.com/m", "other.org/apis/v1", "", true},
	}
	for _, tt := range tests {
		got, err := RelativeImport(tt.module, tt.pkg)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("RelativeImport(%q, %q) = %q, %v; want %q, error %v", tt.module, tt.pkg, got, err, tt.want, tt.wantErr)
		}
	}
}
