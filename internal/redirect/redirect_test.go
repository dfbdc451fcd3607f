package redirect

import (
	"net/http"
	"net/url"
	"testing"
)

// hop builds the request an http.Client sends after a redirect from
// previous to target.
func hop(previous *http.Request, target string) *http.Request {
	u, _ := url.Parse(target)
	return &http.Request{URL: u, Response: &http.Response{Request: previous}}
}

func TestLeftOrigin(t *testing.T) {
	first := func(s string) *http.Request { u, _ := url.Parse(s); return &http.Request{URL: u} }
	for _, tc := range []struct {
		from, via, to string
		want          bool
	}{
		{"https://api:6443/a", "", "https://api:6443/b", false},
		{"https://api/a", "", "https://API:443/b", false},
		{"http://api/a", "", "http://api:80/b", false},
		{"https://api:6443/a", "", "http://api:6443/b", true},
		{"https://api:6443/a", "", "https://api:6444/b", true},
		{"https://api:6443/a", "", "https://evil:6443/b", true},
		{"https://api/a", "", "https://sub.api/b", true},
		{"https://api/a", "https://evil/x", "https://api/b", false}, // back at the origin
		{"https://api/a", "https://api/x", "https://evil/b", true},  // compared with the first hop
	} {
		req := first(tc.from)
		if tc.via != "" {
			req = hop(req, tc.via)
		}
		if got := LeftOrigin(hop(req, tc.to)); got != tc.want {
			t.Errorf("%s -> %s -> %s: LeftOrigin %v, want %v", tc.from, tc.via, tc.to, got, tc.want)
		}
	}
	if LeftOrigin(first("https://api/a")) {
		t.Error("a first request left its origin")
	}
}
