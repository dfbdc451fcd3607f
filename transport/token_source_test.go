package transport

import (
	"errors"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

// fakeNow is a settable clock for token sources.
type fakeNow struct {
	mu sync.Mutex
	t  time.Time
}

func (f *fakeNow) now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

func (f *fakeNow) step(d time.Duration) {
	f.mu.Lock()
	f.t = f.t.Add(d)
	f.mu.Unlock()
}

// countingSource hands out tokens "t1", "t2", ... expiring after ttl, or err.
type countingSource struct {
	mu    sync.Mutex
	calls int
	ttl   time.Duration
	clock *fakeNow
	err   error
}

func (s *countingSource) Token() (*oauth2.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	if s.err != nil {
		return nil, s.err
	}
	return &oauth2.Token{AccessToken: "t" + string(rune('0'+s.calls)), Expiry: s.clock.now().Add(s.ttl)}, nil
}

func TestCachingTokenSource(t *testing.T) {
	clock := &fakeNow{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	base := &countingSource{ttl: time.Minute, clock: clock}
	ts := NewCachedTokenSource(base)
	ts.now = clock.now

	token := func() string {
		t.Helper()
		tok, err := ts.Token()
		if err != nil {
			t.Fatal(err)
		}
		return tok.AccessToken
	}

	if got := token(); got != "t1" {
		t.Fatalf("first token %q", got)
	}
	clock.step(30 * time.Second)
	if got := token(); got != "t1" || base.calls != 1 {
		t.Fatalf("cached token: got %q after %d calls", got, base.calls)
	}
	clock.step(31 * time.Second)
	if got := token(); got != "t2" {
		t.Fatalf("expired token not refreshed: %q", got)
	}

	// Reset only drops tokens obtained before the given time.
	ts.ResetTokenOlderThan(clock.now().Add(-time.Second))
	if got := token(); got != "t2" {
		t.Fatalf("token obtained after the reset time was dropped: %q", got)
	}
	ts.ResetTokenOlderThan(clock.now().Add(time.Second))
	if got := token(); got != "t3" {
		t.Fatalf("reset token not refreshed: %q", got)
	}

	// A failing base keeps serving the cached token...
	clock.step(2 * time.Minute)
	base.err = errors.New("token endpoint down")
	if got := token(); got != "t3" {
		t.Fatalf("stale token not served on error: %q", got)
	}
	// ...but with nothing cached the error surfaces.
	ts.ResetTokenOlderThan(clock.now().Add(time.Hour))
	if _, err := ts.Token(); err == nil || !strings.Contains(err.Error(), "token endpoint down") {
		t.Fatalf("error = %v", err)
	}
}

func TestCachedFileTokenSource(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "token", []byte("  first-token\n"))
	clock := &fakeNow{t: time.Now()}
	ts := NewCachedFileTokenSource(path)
	ts.now = clock.now

	tok, err := ts.Token()
	if err != nil || tok.AccessToken != "first-token" {
		t.Fatalf("Token = %v, %v", tok, err)
	}
	writeFile(t, dir, "token", []byte("second-token"))
	if tok, _ := ts.Token(); tok.AccessToken != "first-token" {
		t.Fatalf("file re-read before the period: %q", tok.AccessToken)
	}
	// The file token expires after a minute, with 10s leeway.
	clock.step(51 * time.Second)
	if tok, _ := ts.Token(); tok.AccessToken != "second-token" {
		t.Fatalf("file not re-read after the period: %q", tok.AccessToken)
	}

	// An empty or vanished file keeps the last good token.
	writeFile(t, dir, "token", []byte("\n"))
	clock.step(2 * time.Minute)
	if tok, err := ts.Token(); err != nil || tok.AccessToken != "second-token" {
		t.Fatalf("empty file: %v, %v", tok, err)
	}

	empty := NewCachedFileTokenSource(writeFile(t, dir, "empty", nil))
	if _, err := empty.Token(); err == nil || !strings.Contains(err.Error(), "read empty token from file") {
		t.Errorf("empty file error = %v", err)
	}
	missing := NewCachedFileTokenSource(dir + "/missing")
	if _, err := missing.Token(); err == nil || !strings.Contains(err.Error(), "failed to read token file") {
		t.Errorf("missing file error = %v", err)
	}
}

func TestBearerTokenFileRewrittenMidTest(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "token", []byte("token-v1\n"))
	rec := &headerRecorder{}
	srv := newPlainServer(t, rec)

	rt, err := New(&Config{BearerTokenFile: path})
	if err != nil {
		t.Fatal(err)
	}
	// Drive the token cache with a fake clock instead of waiting a minute.
	bearer, ok := rt.(*bearerAuthRoundTripper)
	if !ok {
		t.Fatalf("New returned %T", rt)
	}
	clock := &fakeNow{t: time.Now()}
	bearer.source.(*cachingTokenSource).now = clock.now

	send := func() string {
		t.Helper()
		resp, err := rt.RoundTrip(newGet(t, srv.URL+"/api"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return rec.last().Get("Authorization")
	}
	if got := send(); got != "Bearer token-v1" {
		t.Fatalf("first request: %q", got)
	}
	writeFile(t, dir, "token", []byte("token-v2\n"))
	clock.step(2 * time.Minute)
	if got := send(); got != "Bearer token-v2" {
		t.Fatalf("after rewrite: %q", got)
	}
	// A deleted file keeps the last token.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	clock.step(2 * time.Minute)
	if got := send(); got != "Bearer token-v2" {
		t.Fatalf("after removal: %q", got)
	}
}

func TestBearerTokenWinsUntilFileRead(t *testing.T) {
	// With both a token and a file, the file is not read up front, but the
	// file's token replaces the literal one on the first request.
	dir := t.TempDir()
	path := writeFile(t, dir, "token", []byte("from-file"))
	base := &recordingRoundTripper{}
	rt, err := NewBearerAuthWithRefreshRoundTripper("literal", path, base)
	if err != nil {
		t.Fatal(err)
	}
	resp, _ := rt.RoundTrip(newGet(t, "http://example.invalid/"))
	resp.Body.Close()
	if got := base.last(t).Header.Get("Authorization"); got != "Bearer from-file" {
		t.Errorf("Authorization = %q", got)
	}
	// If the file is unreadable the literal token is the fallback.
	rt, err = NewBearerAuthWithRefreshRoundTripper("literal", dir+"/missing", base)
	if err != nil {
		t.Fatal(err)
	}
	resp, _ = rt.RoundTrip(newGet(t, "http://example.invalid/"))
	resp.Body.Close()
	if got := base.last(t).Header.Get("Authorization"); got != "Bearer literal" {
		t.Errorf("fallback Authorization = %q", got)
	}
}

func TestResettableTokenSourceWrapTransportResetsOn401(t *testing.T) {
	// The server accepts only the newest token; the first request with a
	// stale token gets 401, which must make the next one fetch a new token.
	var current atomic.Value
	current.Store("Bearer t1")
	var statuses []int
	srv := newPlainServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != current.Load() {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}`))
			return
		}
		whoAmIHandler(w, r)
	}))
	clock := &fakeNow{t: time.Now()}
	base := &countingSource{ttl: time.Hour, clock: clock}
	cached := NewCachedTokenSource(base)
	rt := ResettableTokenSourceWrapTransport(cached)(http.DefaultTransport)

	send := func(preset string) int {
		req := newGet(t, srv.URL+"/api")
		if preset != "" {
			req.Header.Set("Authorization", preset)
		}
		resp, err := rt.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		statuses = append(statuses, resp.StatusCode)
		return resp.StatusCode
	}
	if send("") != http.StatusOK {
		t.Fatal("first request rejected")
	}
	current.Store("Bearer t2") // the server rotated its expectations
	if send("") != http.StatusUnauthorized {
		t.Fatal("stale token accepted")
	}
	if send("") != http.StatusOK {
		t.Fatalf("token not reset after 401: statuses %v, %d source calls", statuses, base.calls)
	}
	// An explicit Authorization header bypasses the source.
	if send("Bearer t2") != http.StatusOK || base.calls != 2 {
		t.Errorf("explicit header: source called %d times", base.calls)
	}

	// The plain wrapper never resets.
	plain := NewCachedTokenSource(&countingSource{ttl: time.Hour, clock: clock})
	rt = TokenSourceWrapTransport(plain)(http.DefaultTransport)
	current.Store("Bearer nothing-matches")
	send("")
	send("")
	if tok, _ := plain.Token(); tok.AccessToken != "t1" {
		t.Errorf("TokenSourceWrapTransport reset the token: %q", tok.AccessToken)
	}
}
