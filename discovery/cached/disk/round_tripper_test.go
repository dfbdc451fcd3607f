package disk

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubeclient/client-go/discovery/cached/internal/apiservertest"
)

// TestOpenAPIV3DocumentsCachedOnDisk runs two clients, as two kubectl
// invocations would, over one HTTP cache directory.
func TestOpenAPIV3DocumentsCachedOnDisk(t *testing.T) {
	s := apiservertest.New(t, true, apiservertest.CoreAndApps())
	httpCache := t.TempDir()
	readAppsV1 := func() []byte {
		t.Helper()
		c, err := NewCachedDiscoveryClientForConfig(s.Config(), t.TempDir(), httpCache, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		paths, err := c.OpenAPIV3().Paths()
		if err != nil {
			t.Fatal(err)
		}
		gv, ok := paths["apis/apps/v1"]
		if !ok {
			t.Fatalf("no apis/apps/v1 in %v", paths)
		}
		doc, err := gv.Schema("application/json")
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}

	first := readAppsV1()
	if got := s.Count("/openapi/v3/apis/apps/v1"); got != 1 {
		t.Fatalf("document fetched %d times, want 1", got)
	}

	second := readAppsV1()
	if string(first) != string(second) {
		t.Error("the document read from the cache differs")
	}
	// The hashed document is immutable: served from disk with no request.
	if got := s.Count("/openapi/v3/apis/apps/v1"); got != 1 {
		t.Errorf("document fetched %d times across two clients, want 1", got)
	}
	// The listing is revalidated with its ETag and not resent.
	if got, nm := s.Count("/openapi/v3"), s.NotModified("/openapi/v3"); got != 2 || nm != 1 {
		t.Errorf("listing: %d requests, %d answered 304; want 2 and 1", got, nm)
	}
}

// fakeOrigin is a server whose one resource can be changed, and which
// records the conditional headers it receives.
type fakeOrigin struct {
	mu       sync.Mutex
	body     string
	header   http.Header
	requests []http.Header
}

func (o *fakeOrigin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	o.mu.Lock()
	o.requests = append(o.requests, r.Header.Clone())
	body, header := o.body, o.header.Clone()
	o.mu.Unlock()
	for k, v := range header {
		w.Header()[k] = v
	}
	etag := header.Get("ETag")
	if etag != "" && r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if lm := header.Get("Last-Modified"); lm != "" && etag == "" && r.Header.Get("If-Modified-Since") == lm {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	io.WriteString(w, body)
}

func (o *fakeOrigin) set(body string, header http.Header) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.body, o.header = body, header
}

func (o *fakeOrigin) count() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.requests)
}

func (o *fakeOrigin) last() http.Header {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.requests[len(o.requests)-1]
}

type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

func newTestCache(t *testing.T, dir string, c *clock) *cacheRoundTripper {
	rt := newCacheRoundTripper(dir, http.DefaultTransport).(*cacheRoundTripper)
	rt.now = c.Now
	return rt
}

func get(t *testing.T, rt http.RoundTripper, url string, header http.Header) (string, *http.Response) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := rt.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(body), resp
}

func TestFreshnessAndRevalidation(t *testing.T) {
	origin := &fakeOrigin{}
	server := httptest.NewServer(origin)
	defer server.Close()
	start := time.Now().UTC().Truncate(time.Second)
	c := &clock{now: start}
	dir := t.TempDir()

	tests := []struct {
		name        string
		header      http.Header
		after       time.Duration
		wantFresh   bool   // answered without a request
		wantIfNone  string // If-None-Match sent when revalidating
		wantIfSince string
	}{
		{"max-age still fresh", http.Header{"Cache-Control": {"max-age=60"}, "Etag": {`"a"`}}, 30 * time.Second, true, "", ""},
		{"max-age expired revalidates by etag", http.Header{"Cache-Control": {"max-age=60"}, "Etag": {`"a"`}}, 90 * time.Second, false, `"a"`, ""},
		{"expires still fresh", http.Header{"Expires": {start.Add(time.Hour).Format(time.RFC1123)}, "Etag": {`"b"`}}, 30 * time.Minute, true, "", ""},
		{"no-cache always revalidates", http.Header{"Cache-Control": {"no-cache"}, "Etag": {`"c"`}}, 0, false, `"c"`, ""},
		{"last-modified revalidates by date", http.Header{"Last-Modified": {"Wed, 01 Jan 2025 00:00:00 GMT"}}, 0, false, "", "Wed, 01 Jan 2025 00:00:00 GMT"},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			url := server.URL + "/doc/" + string(rune('a'+i))
			header := tc.header.Clone()
			c.now = start
			header.Set("Date", start.Format(http.TimeFormat))
			origin.set("v1 body", header)
			rt := newTestCache(t, dir, c)
			if body, resp := get(t, rt, url, nil); body != "v1 body" || resp.Header.Get(fromCacheHeader) != "" {
				t.Fatalf("first GET: %q, from cache %q", body, resp.Header.Get(fromCacheHeader))
			}
			before := origin.count()

			c.now = start.Add(tc.after)
			body, resp := get(t, rt, url, nil)
			if body != "v1 body" || resp.Header.Get(fromCacheHeader) != "1" {
				t.Fatalf("second GET: %q, from cache %q; want the cached body", body, resp.Header.Get(fromCacheHeader))
			}
			if sent := origin.count() - before; tc.wantFresh != (sent == 0) {
				t.Fatalf("second GET sent %d requests; fresh=%v", sent, tc.wantFresh)
			}
			if !tc.wantFresh {
				last := origin.last()
				if last.Get("If-None-Match") != tc.wantIfNone || last.Get("If-Modified-Since") != tc.wantIfSince {
					t.Errorf("conditional headers If-None-Match=%q If-Modified-Since=%q", last.Get("If-None-Match"), last.Get("If-Modified-Since"))
				}
			}
		})
	}
}

func TestChangedResourceReplacesCachedOne(t *testing.T) {
	origin := &fakeOrigin{}
	server := httptest.NewServer(origin)
	defer server.Close()
	c := &clock{now: time.Now()}
	rt := newTestCache(t, t.TempDir(), c)

	origin.set("old", http.Header{"Etag": {`"1"`}})
	get(t, rt, server.URL+"/x", nil)
	origin.set("new", http.Header{"Etag": {`"2"`}})
	if body, resp := get(t, rt, server.URL+"/x", nil); body != "new" || resp.Header.Get(fromCacheHeader) != "" {
		t.Fatalf("got %q (from cache %q), want the new body from the server", body, resp.Header.Get(fromCacheHeader))
	}
	// The new version is what is cached now.
	if body, resp := get(t, rt, server.URL+"/x", nil); body != "new" || resp.Header.Get(fromCacheHeader) != "1" {
		t.Errorf("got %q (from cache %q), want the new body revalidated", body, resp.Header.Get(fromCacheHeader))
	}
}

// roundTripperFunc adapts a function to http.RoundTripper.
type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// TestRevalidationOfRequestWithoutHeader calls RoundTrip directly with
// requests whose Header is nil, as a caller of the round tripper (not
// http.Client) may, over a transport that tolerates them.
func TestRevalidationOfRequestWithoutHeader(t *testing.T) {
	tests := []struct {
		name          string
		header        http.Header
		conditionalOn string
	}{
		{"etag", http.Header{"Etag": {`"1"`}}, "If-None-Match"},
		{"last-modified", http.Header{"Last-Modified": {"Wed, 01 Jan 2025 00:00:00 GMT"}}, "If-Modified-Since"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var conditional []string
			next := roundTripperFunc(func(req *http.Request) (*http.Response, error) {
				conditional = append(conditional, req.Header.Get(tc.conditionalOn))
				if req.Header.Get(tc.conditionalOn) != "" {
					return &http.Response{StatusCode: http.StatusNotModified, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("")), Request: req}, nil
				}
				return &http.Response{StatusCode: http.StatusOK, Header: tc.header.Clone(), Body: io.NopCloser(strings.NewReader("body")), Request: req}, nil
			})
			rt := newCacheRoundTripper(t.TempDir(), next)
			u := &url.URL{Scheme: "https", Host: "example.com", Path: "/x"}
			for i, wantFromCache := range []string{"", "1"} {
				resp, err := rt.RoundTrip(&http.Request{Method: http.MethodGet, URL: u})
				if err != nil {
					t.Fatalf("GET %d: %v", i, err)
				}
				body, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || string(body) != "body" || resp.Header.Get(fromCacheHeader) != wantFromCache {
					t.Fatalf("GET %d: body %q, err %v, from cache %q; want from cache %q", i, body, err, resp.Header.Get(fromCacheHeader), wantFromCache)
				}
			}
			// Only the second request revalidates the stored response.
			if len(conditional) != 2 || conditional[0] != "" || conditional[1] == "" {
				t.Errorf("%s sent on the two requests: %q", tc.conditionalOn, conditional)
			}
		})
	}
}

func TestNotCachedOrNotServed(t *testing.T) {
	origin := &fakeOrigin{}
	server := httptest.NewServer(origin)
	defer server.Close()
	c := &clock{now: time.Now()}
	fresh := http.Header{"Cache-Control": {"max-age=3600"}, "Date": {time.Now().UTC().Format(http.TimeFormat)}}

	t.Run("no-store", func(t *testing.T) {
		rt := newTestCache(t, t.TempDir(), c)
		origin.set("secret", http.Header{"Cache-Control": {"no-store"}, "Etag": {`"s"`}})
		get(t, rt, server.URL+"/s", nil)
		before := origin.count()
		if _, resp := get(t, rt, server.URL+"/s", nil); resp.Header.Get(fromCacheHeader) != "" || origin.last().Get("If-None-Match") != "" || origin.count() != before+1 {
			t.Error("a no-store response was cached")
		}
	})
	t.Run("vary mismatch", func(t *testing.T) {
		rt := newTestCache(t, t.TempDir(), c)
		h := fresh.Clone()
		h.Set("Vary", "Accept")
		origin.set("json", h)
		get(t, rt, server.URL+"/v", http.Header{"Accept": {"application/json"}})
		before := origin.count()
		get(t, rt, server.URL+"/v", http.Header{"Accept": {"application/json"}})
		if origin.count() != before {
			t.Error("same Accept: not served from cache")
		}
		get(t, rt, server.URL+"/v", http.Header{"Accept": {"application/com.github.proto-openapi.spec.v3@v1.0+protobuf"}})
		if origin.count() != before+1 {
			t.Error("different Accept: served the cached response of another representation")
		}
	})
	t.Run("non-GET passes through", func(t *testing.T) {
		rt := newTestCache(t, t.TempDir(), c)
		origin.set("posted", fresh)
		for i := 0; i < 2; i++ {
			req, _ := http.NewRequest(http.MethodPost, server.URL+"/p", strings.NewReader("{}"))
			resp, err := rt.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.Header.Get(fromCacheHeader) != "" {
				t.Error("a POST was answered from the cache")
			}
		}
	})
	t.Run("error status not cached", func(t *testing.T) {
		dir := t.TempDir()
		rt := newTestCache(t, dir, c)
		failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "max-age=3600")
			http.Error(w, "boom", http.StatusInternalServerError)
		}))
		defer failing.Close()
		get(t, rt, failing.URL+"/e", nil)
		entries, _ := os.ReadDir(dir)
		if len(entries) != 0 {
			t.Errorf("a 500 was stored: %v", entries)
		}
	})
	t.Run("corrupted entry is a miss", func(t *testing.T) {
		dir := t.TempDir()
		rt := newTestCache(t, dir, c)
		origin.set("intact", fresh)
		get(t, rt, server.URL+"/c", nil)
		file := filepath.Join(dir, filepath.Base(rt.store.fileFor(server.URL+"/c")))
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		data[len(data)-1] ^= 0xff
		if err := os.WriteFile(file, data, 0o600); err != nil {
			t.Fatal(err)
		}
		before := origin.count()
		if body, _ := get(t, rt, server.URL+"/c", nil); body != "intact" || origin.count() != before+1 {
			t.Errorf("corrupted entry: got %q with %d requests, want a fresh fetch", body, origin.count()-before)
		}
	})
}

func TestWrappedRoundTripper(t *testing.T) {
	rt := newCacheRoundTripper(t.TempDir(), http.DefaultTransport)
	type wrapper interface{ WrappedRoundTripper() http.RoundTripper }
	w, ok := rt.(wrapper)
	if !ok || w.WrappedRoundTripper() != http.DefaultTransport {
		t.Error("the cache does not expose the round tripper it wraps")
	}
}
