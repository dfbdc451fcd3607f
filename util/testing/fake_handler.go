package testing

import (
	"io"
	"net/http"
	"net/url"
	"reflect"
	"sync"
)

// TestInterface is the part of *testing.T that FakeHandler's validation
// methods report to.
type TestInterface interface {
	Errorf(format string, args ...interface{})
	Logf(format string, args ...interface{})
}

// LogInterface is where FakeHandler logs problems met while serving; a
// *testing.T will do.
type LogInterface interface {
	Logf(format string, args ...interface{})
}

// FakeHandler is an http.Handler that answers every request with StatusCode
// and ResponseBody and remembers the last request (and its body). It expects
// the requests of a single test only: put it behind an http.ServeMux to keep
// other traffic away.
type FakeHandler struct {
	RequestReceived *http.Request
	RequestBody     string
	StatusCode      int
	ResponseBody    string
	// T receives log messages about serving problems; passing the test's
	// *testing.T ties them to the test.
	T LogInterface

	// SkipRequestFn, if set, is asked about each request; requests it
	// returns true for are answered but neither counted nor recorded.
	SkipRequestFn func(verb string, url url.URL) bool

	// lock guards every field above as well as the counters below.
	lock           sync.Mutex
	requestCount   int
	hasBeenChecked bool
}

// SetResponseBody changes the body of later responses.
func (f *FakeHandler) SetResponseBody(responseBody string) {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.ResponseBody = responseBody
}

// ServeHTTP records request and writes the canned response.
func (f *FakeHandler) ServeHTTP(response http.ResponseWriter, request *http.Request) {
	f.lock.Lock()
	defer f.lock.Unlock()

	if f.SkipRequestFn != nil && f.SkipRequestFn(request.Method, *request.URL) {
		f.respond(response)
		return
	}
	f.requestCount++
	if f.hasBeenChecked {
		panic("FakeHandler received a request after its request count was validated")
	}
	f.RequestReceived = request
	f.respond(response)

	body, err := io.ReadAll(request.Body)
	if err != nil && f.T != nil {
		f.T.Logf("FakeHandler: reading request body: %v", err)
	}
	f.RequestBody = string(body)
}

func (f *FakeHandler) respond(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(f.StatusCode)
	if _, err := io.WriteString(w, f.ResponseBody); err != nil && f.T != nil {
		f.T.Logf("FakeHandler: writing response body: %v", err)
	}
}

// ValidateRequestCount checks that exactly count requests were recorded and
// reports to t otherwise. After it, any further request makes ServeHTTP panic.
func (f *FakeHandler) ValidateRequestCount(t TestInterface, count int) bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.hasBeenChecked = true
	if f.requestCount != count {
		t.Errorf("expected %d requests, got %d (only the last one is recorded)", count, f.requestCount)
		return false
	}
	return true
}

// ValidateRequest checks that the last request received had the expected
// path (with query), method and, if body is not nil, body. A request count
// other than one is only logged, as client-go does; use ValidateRequestCount
// to insist on a count.
func (f *FakeHandler) ValidateRequest(t TestInterface, expectedPath, expectedMethod string, body *string) {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.hasBeenChecked = true
	if f.requestCount != 1 {
		t.Logf("expected 1 request, got %d (only the last one is checked)", f.requestCount)
	}
	if f.RequestReceived == nil {
		t.Errorf("no request was received")
		return
	}
	want, err := url.Parse(expectedPath)
	if err != nil {
		t.Errorf("invalid expected path %q: %v", expectedPath, err)
		return
	}
	got := f.RequestReceived.URL
	if got.Path != want.Path {
		t.Errorf("unexpected request path: got %q, want %q", got.Path, want.Path)
	}
	if gotQ, wantQ := got.Query(), want.Query(); !reflect.DeepEqual(gotQ, wantQ) && (len(gotQ) != 0 || len(wantQ) != 0) {
		t.Errorf("unexpected request query: got %v, want %v", gotQ, wantQ)
	}
	if f.RequestReceived.Method != expectedMethod {
		t.Errorf("unexpected request method: got %q, want %q", f.RequestReceived.Method, expectedMethod)
	}
	if body != nil && *body != f.RequestBody {
		t.Errorf("unexpected request body:\ngot:  %q\nwant: %q", f.RequestBody, *body)
	}
}
