package disk

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"strconv"
	"strings"
	"time"

	"k8s.io/klog/v2"
)

const (
	// fromCacheHeader marks a response served from the cache.
	fromCacheHeader = "X-From-Cache"
	// variedHeaderPrefix prefixes the stored copies of the request headers
	// a response varies on.
	variedHeaderPrefix = "X-Varied-"
)

// cacheRoundTripper is an HTTP cache stored on disk. It caches 200 answers
// to GET requests that do not forbid storing (no-store), serves them
// without a request while they are fresh (Cache-Control max-age or
// Expires, measured from the Date header), and otherwise revalidates them
// with If-None-Match (from the ETag) and If-Modified-Since (from
// Last-Modified), serving the stored body on 304 Not Modified.
type cacheRoundTripper struct {
	store responseStore
	next  http.RoundTripper
	// now is the clock; tests replace it.
	now func() time.Time
}

// newCacheRoundTripper returns a round tripper caching the answers of rt in
// cacheDir.
func newCacheRoundTripper(cacheDir string, rt http.RoundTripper) http.RoundTripper {
	return &cacheRoundTripper{store: responseStore{dir: cacheDir}, next: rt, now: time.Now}
}

// WrappedRoundTripper returns the round tripper requests are sent through.
func (rt *cacheRoundTripper) WrappedRoundTripper() http.RoundTripper { return rt.next }

// CancelRequest cancels req on the wrapped round tripper when it supports
// that legacy mechanism.
func (rt *cacheRoundTripper) CancelRequest(req *http.Request) {
	type canceler interface{ CancelRequest(*http.Request) }
	if c, ok := rt.next.(canceler); ok {
		c.CancelRequest(req)
		return
	}
	klog.FromContext(req.Context()).Error(nil, "CancelRequest not implemented by round-tripper", "type", fmt.Sprintf("%T", rt.next))
}

// RoundTrip implements http.RoundTripper.
func (rt *cacheRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet || req.Header.Get("Range") != "" {
		return rt.next.RoundTrip(req)
	}
	key := req.URL.String()

	cached := rt.load(key, req)
	outgoing := req
	if cached != nil {
		if rt.isFresh(cached.Header, req.Header) {
			cached.Header.Set(fromCacheHeader, "1")
			return cached, nil
		}
		outgoing = withValidators(req, cached.Header)
	}

	resp, err := rt.next.RoundTrip(outgoing)
	if cached != nil && err == nil && resp.StatusCode == http.StatusNotModified {
		// The stored body is still current: refresh the stored headers
		// from the 304 and answer with the stored response.
		drain(resp.Body)
		for _, name := range endToEndHeaders(resp.Header) {
			cached.Header[name] = resp.Header[name]
		}
		rt.save(key, req, cached)
		cached.Header.Set(fromCacheHeader, "1")
		return cached, nil
	}
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK || !storable(req.Header, resp.Header) {
		rt.store.delete(key)
		return resp, nil
	}

	body, readErr := io.ReadAll(resp.Body)
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if readErr != nil {
		// Hand the caller what arrived along with the error it will see
		// when reading; store nothing.
		resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{readErr}))
		rt.store.delete(key)
		return resp, nil
	}
	rt.save(key, req, resp)
	return resp, nil
}

// load returns the stored response for key if there is one and it was
// stored for a request with the same values of the headers it varies on.
func (rt *cacheRoundTripper) load(key string, req *http.Request) *http.Response {
	data, ok := rt.store.get(key)
	if !ok {
		return nil
	}
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(data)), req)
	if err != nil {
		rt.store.delete(key)
		return nil
	}
	for _, name := range commaSeparated(resp.Header, "Vary") {
		name = http.CanonicalHeaderKey(name)
		if name == "*" || req.Header.Get(name) != resp.Header.Get(variedHeaderPrefix+name) {
			drain(resp.Body)
			return nil
		}
	}
	return resp
}

// save stores resp, whose body it reads and replaces, under key, noting the
// request headers resp varies on. Failures are logged: the cache is an
// optimisation.
func (rt *cacheRoundTripper) save(key string, req *http.Request, resp *http.Response) {
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return
	}
	stored := *resp
	stored.Header = resp.Header.Clone()
	stored.Header.Del(fromCacheHeader)
	for _, name := range commaSeparated(resp.Header, "Vary") {
		name = http.CanonicalHeaderKey(name)
		if value := req.Header.Get(name); value != "" {
			stored.Header.Set(variedHeaderPrefix+name, value)
		}
	}
	stored.Body = io.NopCloser(bytes.NewReader(body))
	stored.ContentLength = int64(len(body))
	stored.TransferEncoding = nil
	stored.Uncompressed = false
	dumped, err := httputil.DumpResponse(&stored, true)
	if err == nil {
		err = rt.store.set(key, dumped)
	}
	if err != nil {
		klog.FromContext(req.Context()).V(3).Info("Failed to store HTTP response in the cache", "url", key, "err", err)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
}

// isFresh reports whether a stored response with respHeader may answer a
// request with reqHeader without asking the server.
func (rt *cacheRoundTripper) isFresh(respHeader, reqHeader http.Header) bool {
	reqCC := parseCacheControl(reqHeader)
	respCC := parseCacheControl(respHeader)
	if _, ok := reqCC["no-cache"]; ok || strings.EqualFold(reqHeader.Get("Pragma"), "no-cache") {
		return false
	}
	if _, ok := respCC["no-cache"]; ok {
		return false
	}
	date, err := parseHTTPTime(respHeader.Get("Date"))
	if err != nil {
		return false
	}
	age := rt.now().Sub(date)

	var lifetime time.Duration
	if maxAge, ok := seconds(respCC, "max-age"); ok {
		lifetime = maxAge
	} else if expires := respHeader.Get("Expires"); expires != "" {
		at, err := parseHTTPTime(expires)
		if err != nil {
			return false
		}
		lifetime = at.Sub(date)
	}
	if maxAge, ok := seconds(reqCC, "max-age"); ok && maxAge < lifetime {
		lifetime = maxAge
	}
	return lifetime > age
}

// parseHTTPTime parses an HTTP date. Besides the formats of RFC 9110 it
// accepts RFC 1123 with any zone name, which some servers (the OpenAPI
// handler of kube-apiserver among them) write in Expires.
func parseHTTPTime(value string) (time.Time, error) {
	if t, err := http.ParseTime(value); err == nil {
		return t, nil
	}
	return time.Parse(time.RFC1123, value)
}

// withValidators returns a copy of req asking the server to answer 304 if
// the stored response, with header stored, is still current.
func withValidators(req *http.Request, stored http.Header) *http.Request {
	etag, lastModified := stored.Get("ETag"), stored.Get("Last-Modified")
	if etag == "" && lastModified == "" {
		return req
	}
	out := req.Clone(req.Context())
	if out.Header == nil {
		out.Header = make(http.Header)
	}
	if etag != "" && out.Header.Get("If-None-Match") == "" {
		out.Header.Set("If-None-Match", etag)
	}
	if lastModified != "" && out.Header.Get("If-Modified-Since") == "" {
		out.Header.Set("If-Modified-Since", lastModified)
	}
	return out
}

// storable reports whether neither the request nor the response forbids
// storing the response.
func storable(reqHeader, respHeader http.Header) bool {
	if _, ok := parseCacheControl(reqHeader)["no-store"]; ok {
		return false
	}
	_, ok := parseCacheControl(respHeader)["no-store"]
	return !ok
}

// hopByHopHeaders apply to one connection and are not stored.
var hopByHopHeaders = map[string]bool{
	"Connection":          true,
	"Keep-Alive":          true,
	"Proxy-Authenticate":  true,
	"Proxy-Authorization": true,
	"Te":                  true,
	"Trailers":            true,
	"Transfer-Encoding":   true,
	"Upgrade":             true,
}

// endToEndHeaders lists the headers of h that a 304 may update in the
// stored response.
func endToEndHeaders(h http.Header) []string {
	connection := map[string]bool{}
	for _, name := range commaSeparated(h, "Connection") {
		connection[http.CanonicalHeaderKey(name)] = true
	}
	var names []string
	for name := range h {
		if !hopByHopHeaders[name] && !connection[name] {
			names = append(names, name)
		}
	}
	return names
}

// parseCacheControl splits the Cache-Control directives of h into a map of
// lower-case directive to value ("" for directives without one).
func parseCacheControl(h http.Header) map[string]string {
	directives := map[string]string{}
	for _, part := range commaSeparated(h, "Cache-Control") {
		name, value, _ := strings.Cut(part, "=")
		directives[strings.ToLower(strings.TrimSpace(name))] = strings.Trim(strings.TrimSpace(value), `"`)
	}
	return directives
}

// seconds reads the directive name of cc as a number of seconds.
func seconds(cc map[string]string, name string) (time.Duration, bool) {
	value, ok := cc[name]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(value, 10, 64)
	if err != nil || n < 0 {
		return 0, true
	}
	return time.Duration(n) * time.Second, true
}

// commaSeparated returns the trimmed, non-empty comma-separated values of
// every name header in h.
func commaSeparated(h http.Header, name string) []string {
	var values []string
	for _, line := range h.Values(name) {
		for _, v := range strings.Split(line, ",") {
			if v = strings.TrimSpace(v); v != "" {
				values = append(values, v)
			}
		}
	}
	return values
}

// drain reads body to its end, so that the connection can be reused, and
// closes it.
func drain(body io.ReadCloser) {
	_, _ = io.Copy(io.Discard, body)
	body.Close()
}

// errReader fails every read with err.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }
