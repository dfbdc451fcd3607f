package transport

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"net/http"
	"strings"
	"sync"
	"testing"

	"k8s.io/klog/v2"
	"k8s.io/klog/v2/textlogger"
)

// syncBuffer is a bytes.Buffer safe for the concurrent writes of httptrace
// callbacks.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// debugOutput sends one authenticated request through a debugging round
// tripper with the given levels, logging to a context logger of the given
// verbosity, and returns what was logged.
func debugOutput(t *testing.T, verbosity int, levels ...DebugLevel) string {
	t.Helper()
	out := &syncBuffer{}
	logger := textlogger.NewLogger(textlogger.NewConfig(textlogger.Verbosity(verbosity), textlogger.Output(out)))
	srv := newPlainServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Audit-Id", "a1b2c3")
		whoAmIHandler(w, r)
	}))
	rt := NewBearerAuthRoundTripper("s3cr3t-t0ken", NewDebuggingRoundTripper(http.DefaultTransport, levels...))
	req := newGet(t, srv.URL+"/api/v1/namespaces/kube-system/pods?limit=500")
	req.Header.Set("Accept", "application/json")
	req = req.WithContext(klog.NewContext(context.Background(), logger))
	resp, err := rt.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return out.String()
}

func TestDebuggingRoundTripperLevels(t *testing.T) {
	tests := []struct {
		name      string
		verbosity int
		levels    []DebugLevel
		want      []string
		notWant   []string
	}{
		{
			name:    "by context below V(6) logs nothing",
			levels:  []DebugLevel{DebugByContext},
			notWant: []string{"Request", "Response"},
		},
		{
			name:      "by context V(6): URL timing",
			verbosity: 6,
			levels:    []DebugLevel{DebugByContext},
			want:      []string{`"Response" verb="GET" url="http://`, `status="200 OK"`, "milliseconds="},
			notWant:   []string{`"Request"`, "headers=", "curlCommand"},
		},
		{
			name:      "by context V(7): request headers and response status",
			verbosity: 7,
			levels:    []DebugLevel{DebugByContext},
			want:      []string{`"Request" verb="GET"`, "Authorization: Bearer <masked>", "Accept: application/json", `"Response" status="200 OK"`},
			notWant:   []string{"Audit-Id", "curlCommand"},
		},
		{
			name:      "by context V(8): response headers",
			verbosity: 8,
			levels:    []DebugLevel{DebugByContext},
			want:      []string{"Authorization: Bearer <masked>", "Audit-Id: a1b2c3", `status="200 OK"`},
		},
		{
			name:      "by context V(9): curl command and detailed timing",
			verbosity: 9,
			levels:    []DebugLevel{DebugByContext},
			want:      []string{`curlCommand=<`, `curl -v -XGET `, `-H "Authorization: Bearer <masked>"`, `/api/v1/namespaces/kube-system/pods?limit=500'`, "dialMilliseconds=", "HTTP Trace: Dial succeed", "Audit-Id: a1b2c3"},
		},
		{
			name:    "fixed levels log at V(0)",
			levels:  []DebugLevel{DebugJustURL, DebugRequestHeaders, DebugResponseStatus, DebugResponseHeaders},
			want:    []string{`"Request" verb="GET"`, "Authorization: Bearer <masked>", `"Response" status="200 OK"`, "Audit-Id: a1b2c3"},
			notWant: []string{"curlCommand"},
		},
		{
			name:   "fixed curl command",
			levels: []DebugLevel{DebugCurlCommand},
			// Headers come in the request's map order, so each is checked alone.
			want: []string{`curl -v -XGET  -H `, `-H "Accept: application/json"`, `-H "Authorization: Bearer <masked>"`},
		},
		{
			name:    "no levels logs nothing",
			notWant: []string{"Request", "Response"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := debugOutput(t, tt.verbosity, tt.levels...)
			if strings.Contains(out, "s3cr3t-t0ken") {
				t.Fatalf("bearer token leaked into the log:\n%s", out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("log lacks %q:\n%s", w, out)
				}
			}
			for _, nw := range tt.notWant {
				if strings.Contains(out, nw) {
					t.Errorf("log unexpectedly has %q:\n%s", nw, out)
				}
			}
		})
	}
}

func TestDebuggingRoundTripperTransportError(t *testing.T) {
	out := &syncBuffer{}
	logger := textlogger.NewLogger(textlogger.NewConfig(textlogger.Verbosity(0), textlogger.Output(out)))
	base := &recordingRoundTripper{err: errors.New("connection refused")}
	rt := NewDebuggingRoundTripper(base, DebugURLTiming)
	req := newGet(t, "https://10.0.0.1:6443/version").WithContext(klog.NewContext(context.Background(), logger))
	if _, err := rt.RoundTrip(req); err == nil {
		t.Fatal("error not passed through")
	}
	if !strings.Contains(out.String(), `url="https://10.0.0.1:6443/version" status=""`) {
		t.Errorf("unexpected log:\n%s", out)
	}
}

func TestMaskValue(t *testing.T) {
	tests := []struct{ name, value, want string }{
		{"Authorization", "Bearer abc.def", "Bearer <masked>"},
		{"authorization", "bearer abc", "bearer <masked>"},
		{"Authorization", "Basic dXNlcjpwYXNz", "Basic <masked>"},
		{"Authorization", "Negotiate xyz", "Negotiate <masked>"},
		{"Authorization", "Bearer", "Bearer"},
		{"Authorization", "Bearer ", "Bearer"},
		{"Authorization", "Bearer  ", "Bearer <masked>"},
		{"Authorization", "Digest username=x", "<masked>"},
		{"Authorization", "rawtoken", "<masked>"},
		{"Authorization", " Bearer x", "<masked>"},
		{"Authorization", "", ""},
		{"Accept", "application/json", "application/json"},
		{"X-Token", "Bearer abc", "Bearer abc"},
	}
	for _, tt := range tests {
		if got := maskValue(tt.name, tt.value); got != tt.want {
			t.Errorf("maskValue(%q, %q) = %q, want %q", tt.name, tt.value, got, tt.want)
		}
	}
}

func TestHeadersMapFormatting(t *testing.T) {
	h := maskedHeaders(http.Header{"User-Agent": {"kubectl"}, "Authorization": {"Bearer x"}, "Accept": {"a", "b"}})
	want := "Accept: a\nAccept: b\nAuthorization: Bearer <masked>\nUser-Agent: kubectl\n"
	if got := h.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	m, ok := h.MarshalLog().(map[string][]string)
	if !ok || m["Authorization"][0] != "Bearer <masked>" {
		t.Errorf("MarshalLog() = %#v", h.MarshalLog())
	}
}

func TestDebugWrappersFollowsGlobalVerbosity(t *testing.T) {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	previous := fs.Lookup("v").Value.String()
	t.Cleanup(func() { _ = fs.Set("v", previous) })

	base := &recordingRoundTripper{}
	for _, tt := range []struct {
		v    string
		wrap bool
	}{{"5", false}, {"6", true}, {"9", true}} {
		if err := fs.Set("v", tt.v); err != nil {
			t.Fatal(err)
		}
		rt := DebugWrappers(base)
		d, wrapped := rt.(*debuggingRoundTripper)
		if wrapped != tt.wrap {
			t.Errorf("-v=%s: got %T, wrapped=%v want %v", tt.v, rt, wrapped, tt.wrap)
		}
		if wrapped && (d.levels != maskOf(DebugByContext) || d.WrappedRoundTripper() != base) {
			t.Errorf("-v=%s: levels %b, want only DebugByContext", tt.v, d.levels)
		}
	}
}
