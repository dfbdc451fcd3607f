package rest

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/kubeclient/client-go/util/flowcontrol"
)

func TestRetryAfterIsFollowed(t *testing.T) {
	m := recordMetrics(t)
	srv := newScriptedServer(t, throttled("1"), unavailable("3"), okPod(t))
	limiter := &countingLimiter{}
	backoff := &recordingBackoff{}
	c := coreV1Client(t, srv.Server, func(c *Config) { c.RateLimiter = limiter })

	var pod corev1.Pod
	err := c.Put().Namespace("ns").Resource("pods").Name("p").Body([]byte(`{"replay":"me"}`)).
		BackOffWithContext(backoff).Do(context.Background()).Into(&pod)
	if err != nil {
		t.Fatal(err)
	}
	if pod.Name != "ok" {
		t.Errorf("pod = %q", pod.Name)
	}
	bodies := srv.received()
	if len(bodies) != 3 {
		t.Fatalf("attempts = %d, want 3", len(bodies))
	}
	for i, b := range bodies {
		if b != `{"replay":"me"}` {
			t.Errorf("attempt %d sent body %q", i, b)
		}
	}
	if got := backoff.recorded(); len(got) != 2 || got[0] != time.Second || got[1] != 3*time.Second {
		t.Errorf("waits = %v, want exactly [1s 3s] from Retry-After", got)
	}
	if limiter.count() != 3 {
		t.Errorf("rate limiter passed %d times, want once per attempt (3)", limiter.count())
	}
	snap := m.snapshot()
	host := strings.TrimPrefix(srv.URL, "http://")
	wantResults := []string{"429 PUT " + host, "503 PUT " + host, "200 PUT " + host}
	if strings.Join(snap.results, "|") != strings.Join(wantResults, "|") {
		t.Errorf("RequestResult = %v, want %v", snap.results, wantResults)
	}
	wantRetries := []string{"503 PUT " + host, "200 PUT " + host}
	if strings.Join(snap.retries, "|") != strings.Join(wantRetries, "|") {
		t.Errorf("RequestRetry = %v, want %v", snap.retries, wantRetries)
	}
	if len(snap.limiterWaits) != 3 || snap.limiterWaits[0] != "PUT /api/v1/namespaces/{namespace}/pods/{name}" {
		t.Errorf("RateLimiterLatency = %v", snap.limiterWaits)
	}
	if len(snap.latencies) != 1 {
		t.Errorf("RequestLatency observed %d times, want once per request", len(snap.latencies))
	}
}

func TestRetryLimits(t *testing.T) {
	tests := []struct {
		name         string
		script       []http.HandlerFunc
		configure    func(*Request) *Request
		wantAttempts int
		check        func(error) bool
	}{
		{
			name:         "max retries caps attempts",
			script:       []http.HandlerFunc{throttled("1")},
			configure:    func(r *Request) *Request { return r.MaxRetries(2) },
			wantAttempts: 3,
			check:        apierrors.IsTooManyRequests,
		},
		{
			name:         "zero max retries",
			script:       []http.HandlerFunc{throttled("1")},
			configure:    func(r *Request) *Request { return r.MaxRetries(0) },
			wantAttempts: 1,
			check:        apierrors.IsTooManyRequests,
		},
		{
			name:         "default is ten retries",
			script:       []http.HandlerFunc{unavailable("1")},
			configure:    func(r *Request) *Request { return r },
			wantAttempts: 11,
			check:        apierrors.IsServiceUnavailable,
		},
		{
			name:         "no Retry-After header, no retry",
			script:       []http.HandlerFunc{unavailable("")},
			configure:    func(r *Request) *Request { return r },
			wantAttempts: 1,
			check:        apierrors.IsServiceUnavailable,
		},
		{
			name:         "4xx other than 429 is final",
			script:       []http.HandlerFunc{func(w http.ResponseWriter, r *http.Request) { w.Header().Set("Retry-After", "1"); w.WriteHeader(404) }},
			configure:    func(r *Request) *Request { return r },
			wantAttempts: 1,
			check:        apierrors.IsNotFound,
		},
		{
			name:         "stream body is not replayable",
			script:       []http.HandlerFunc{throttled("1"), okPod(t)},
			configure:    func(r *Request) *Request { return r.Body(strings.NewReader("once")) },
			wantAttempts: 1,
			check:        apierrors.IsTooManyRequests,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := newScriptedServer(t, tc.script...)
			backoff := &recordingBackoff{}
			req := tc.configure(coreV1Client(t, srv.Server).Post().Namespace("ns").Resource("pods").BackOffWithContext(backoff))
			err := req.Do(context.Background()).Error()
			if !tc.check(err) {
				t.Errorf("err = %v", err)
			}
			if got := len(srv.received()); got != tc.wantAttempts {
				t.Errorf("attempts = %d, want %d", got, tc.wantAttempts)
			}
			if got := len(backoff.recorded()); got != tc.wantAttempts-1 {
				t.Errorf("waits = %d, want %d", got, tc.wantAttempts-1)
			}
		})
	}
}

func TestRetryAfterWaitsOnClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c, closeAll := newScriptedPipeServer(t, throttled("2"), okPod(t))
		defer closeAll()
		clk := testingclock.NewFakeClock(time.Now())
		backoff := &URLBackoff{Backoff: flowcontrol.NewFakeBackOff(0, 0, clk)}

		done := make(chan error, 1)
		go func() {
			done <- c.Get().Resource("pods").BackOffWithContext(backoff).Do(context.Background()).Error()
		}()

		settled(t, "the request waits on the clock", func() bool { return len(done) == 0 && clk.HasWaiters() })
		clk.Step(2*time.Second - time.Millisecond)
		settled(t, "the retry waits until the Retry-After delay elapsed", func() bool {
			return clk.HasWaiters() && len(srv.received()) == 1
		})
		clk.Step(time.Millisecond)
		settled(t, "the request finished after the delay", func() bool { return len(done) == 1 })
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if n := len(srv.received()); n != 2 {
			t.Errorf("attempts = %d, want 2", n)
		}
	})
}

func TestCancelDuringRetryWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c, closeAll := newScriptedPipeServer(t, throttled("3600"))
		defer closeAll()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		start := time.Now()
		go func() { done <- c.Get().Resource("pods").Do(ctx).Error() }()
		// Once the first attempt is answered, the request sleeps for the
		// hour-long Retry-After of NoBackoff; cancel during the sleep.
		settled(t, "the first attempt is answered", func() bool { return len(srv.received()) == 1 && len(done) == 0 })
		cancel()
		settled(t, "cancellation interrupted the Retry-After wait", func() bool { return len(done) == 1 })
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
		if d := time.Since(start); d != 0 {
			t.Errorf("the request ended after %v, want at the cancellation", d)
		}
	})
}

// resetOnce closes the first connection without answering, then serves pods.
func resetOnce(t *testing.T) *scriptedServer {
	var once sync.Once
	return newScriptedServer(t, func(w http.ResponseWriter, r *http.Request) {
		reset := false
		once.Do(func() { reset = true })
		if !reset {
			writeJSON(t, w, 200, testPod("after-reset"))
			return
		}
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		_ = buf.Flush()
		_ = conn.Close()
	})
}

func TestConnectionDropRetriedForGetOnly(t *testing.T) {
	srv := resetOnce(t)
	backoff := &recordingBackoff{}
	var pod corev1.Pod
	err := coreV1Client(t, srv.Server).Get().Namespace("ns").Resource("pods").Name("p").BackOffWithContext(backoff).Do(context.Background()).Into(&pod)
	if err != nil {
		t.Fatalf("GET after a dropped connection: %v", err)
	}
	if pod.Name != "after-reset" || len(srv.received()) != 2 {
		t.Errorf("pod %q after %d attempts", pod.Name, len(srv.received()))
	}
	if got := backoff.recorded(); len(got) != 1 || got[0] != time.Second {
		t.Errorf("waits = %v, want [1s]", got)
	}

	srv = resetOnce(t)
	err = coreV1Client(t, srv.Server).Post().Namespace("ns").Resource("pods").Body([]byte("{}")).BackOffWithContext(&recordingBackoff{}).Do(context.Background()).Error()
	if err == nil {
		t.Fatal("POST after a dropped connection should fail, not be replayed")
	}
	if n := len(srv.received()); n != 1 {
		t.Errorf("POST attempts = %d", n)
	}
}

func TestStreamRetriesOnRetryAfter(t *testing.T) {
	srv := newScriptedServer(t, unavailable("1"), func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "log line\n")
	})
	rc, err := coreV1Client(t, srv.Server).Get().Resource("pods").Name("p").SubResource("log").
		BackOffWithContext(&recordingBackoff{}).Stream(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	line, _ := bufio.NewReader(rc).ReadString('\n')
	if line != "log line\n" || len(srv.received()) != 2 {
		t.Errorf("line %q after %d attempts", line, len(srv.received()))
	}
}

func TestWrapPreviousError(t *testing.T) {
	w := &withRetry{maxRetries: 3}
	base := errors.New("connection refused")
	final := context.DeadlineExceeded
	w.rememberError(base)
	w.rememberError(final)
	got := w.WrapPreviousError(final)
	if !errors.Is(got, context.DeadlineExceeded) || !strings.Contains(got.Error(), "error from a previous attempt: connection refused") {
		t.Errorf("wrapped = %v", got)
	}
	if errors.Unwrap(got) != final {
		t.Errorf("unwrap = %v", errors.Unwrap(got))
	}
	fresh := &withRetry{}
	if fresh.WrapPreviousError(final) != final || fresh.WrapPreviousError(nil) != nil {
		t.Error("nothing to wrap should return the error itself")
	}
}

func TestIsNextRetryRules(t *testing.T) {
	req, _ := http.NewRequest("GET", "http://h/api", nil)
	resp := func(code int, retryAfter string) *http.Response {
		h := http.Header{}
		if retryAfter != "" {
			h.Set("Retry-After", retryAfter)
		}
		return &http.Response{StatusCode: code, Header: h}
	}
	restReq := &Request{}
	tests := []struct {
		name string
		resp *http.Response
		err  error
		f    IsRetryableErrorFunc
		want bool
		wait time.Duration
	}{
		{"429 with header", resp(429, "5"), nil, nil, true, 5 * time.Second},
		{"500 with header", resp(500, "0"), nil, nil, true, 0},
		{"429 without header", resp(429, ""), nil, nil, false, 0},
		{"bad header", resp(503, "soon"), nil, nil, false, 0},
		{"200", resp(200, "1"), nil, nil, false, 0},
		{"retryable error", nil, io.ErrUnexpectedEOF, retryableForIdempotentGet, true, time.Second},
		{"error without policy", nil, io.ErrUnexpectedEOF, nil, false, 0},
		{"refused error", nil, errors.New("x"), neverRetryError, false, 0},
		{"neither response nor error", nil, nil, nil, false, 0},
	}
	for _, tc := range tests {
		w := &withRetry{maxRetries: 5}
		got := w.IsNextRetry(context.Background(), restReq, req, tc.resp, tc.err, tc.f)
		if got != tc.want {
			t.Errorf("%s: retry = %v, want %v", tc.name, got, tc.want)
		}
		if got && w.next.Wait != tc.wait {
			t.Errorf("%s: wait = %v, want %v", tc.name, w.next.Wait, tc.wait)
		}
	}
	var retryAfter RetryAfter
	w := &withRetry{maxRetries: 1}
	w.IsNextRetry(context.Background(), restReq, req, resp(429, "2"), nil, nil)
	retryAfter = *w.next
	if retryAfter.Attempt != 1 || !strings.Contains(retryAfter.Reason, "retries: 1, retry-after: 2s - retry-reason: due to server-side throttling") {
		t.Errorf("RetryAfter = %+v", retryAfter)
	}
	if w.IsNextRetry(context.Background(), restReq, req, resp(429, "2"), nil, nil) {
		t.Error("retried past maxRetries")
	}
}

func TestThrottling(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(t, w, 200, &corev1.PodList{})
	}))
	defer srv.Close()
	shared := &countingLimiter{}
	a := coreV1Client(t, srv, func(c *Config) { c.RateLimiter = shared })
	b := coreV1Client(t, srv, func(c *Config) { c.RateLimiter = shared })
	ctx := context.Background()
	for _, c := range []*RESTClient{a, b} {
		if err := c.Get().Resource("pods").Do(ctx).Error(); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Get().Resource("pods").DoRaw(ctx); err != nil {
			t.Fatal(err)
		}
		rc, err := c.Get().Resource("pods").Stream(ctx)
		if err != nil {
			t.Fatal(err)
		}
		rc.Close()
	}
	if shared.count() != 6 {
		t.Errorf("shared limiter used %d times, want 6", shared.count())
	}

	// A per-request limiter replaces the client's.
	own := &countingLimiter{}
	if err := a.Get().Resource("pods").Throttle(own).Do(ctx).Error(); err != nil {
		t.Fatal(err)
	}
	if own.count() != 1 || shared.count() != 6 {
		t.Errorf("Throttle override: own=%d shared=%d", own.count(), shared.count())
	}

	// Limiter failures are reported, caller cancellation is passed through.
	failing := &countingLimiter{err: errors.New("limiter stopped")}
	err := a.Get().Resource("pods").Throttle(failing).Do(ctx).Error()
	if err == nil || !strings.Contains(err.Error(), "client rate limiter Wait returned an error: limiter stopped") {
		t.Errorf("err = %v", err)
	}
	cancelled := &countingLimiter{err: context.Canceled}
	if err := a.Get().Resource("pods").Throttle(cancelled).Do(ctx).Error(); err != context.Canceled {
		t.Errorf("err = %v, want context.Canceled unwrapped", err)
	}
}

// TestTokenBucketThrottlesBurst: with one token refilled once an hour, a
// second request waits for the limiter, so a caller's deadline ends it.
// In a synctest bubble over in-memory connections, an unthrottled request
// is answered before the bubble's clock moves, whatever the machine's
// speed.
func TestTokenBucketThrottlesBurst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n, closeAll := newPipeNet(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			writeJSON(t, w, 200, &corev1.PodList{})
		}))
		defer closeAll()
		config := coreV1Config("http://pipe")
		config.Dial = n.DialContext
		config.QPS, config.Burst = 1.0/3600, 1
		c, err := RESTClientFor(config)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Get().Resource("pods").Do(context.Background()).Error(); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		if err := c.Get().Resource("pods").Do(ctx).Error(); err == nil {
			t.Error("second request was not throttled")
		}
	})
}

func TestMetricsForSuccessfulRequests(t *testing.T) {
	m := recordMetrics(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(t, w, 201, testPod("p"))
	}))
	defer srv.Close()
	c := coreV1Client(t, srv, func(c *Config) { c.RateLimiter = &countingLimiter{} })
	body := []byte(`{"kind":"Pod","apiVersion":"v1"}`)
	if err := c.Post().Namespace("ns").Resource("pods").Body(body).Do(context.Background()).Error(); err != nil {
		t.Fatal(err)
	}
	snap := m.snapshot()
	host := strings.TrimPrefix(srv.URL, "http://")
	if len(snap.results) != 1 || snap.results[0] != "201 POST "+host {
		t.Errorf("results = %v", snap.results)
	}
	if len(snap.retries) != 0 {
		t.Errorf("retries = %v", snap.retries)
	}
	if len(snap.latencies) != 1 || snap.latencies[0] != "POST /api/v1/namespaces/{namespace}/pods" {
		t.Errorf("latencies = %v", snap.latencies)
	}
	if len(snap.requestSizes) != 1 || snap.requestSizes[0] != float64(len(body)) {
		t.Errorf("request sizes = %v", snap.requestSizes)
	}
	if len(snap.responseSizes) != 1 || snap.responseSizes[0] < 50 {
		t.Errorf("response sizes = %v", snap.responseSizes)
	}
	_ = metav1.Now
}
