package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
	"github.com/kubeclient/client-go/tools/metrics"
)

// Helpers shared by this package's test files: the test scheme and
// clients, scripted servers, recorders of metrics, backoffs and warnings.
// A helper used by one test file stays in it.

// The rest package must not depend on kubernetes/scheme, so its tests build
// their own scheme holding core/v1 and the meta types.
var (
	testScheme = runtime.NewScheme()
	testCodecs = serializer.NewCodecFactory(testScheme)
	testParams = runtime.NewParameterCodec(testScheme)
)

func init() {
	utilruntime.Must(corev1.AddToScheme(testScheme))
	metav1.AddToGroupVersion(testScheme, schema.GroupVersion{Version: "v1"})
}

// coreV1Config returns a Config for the core/v1 API of the server at host,
// with throttling off so tests are not slowed down.
func coreV1Config(host string) *Config {
	return &Config{
		Host:    host,
		APIPath: "/api",
		ContentConfig: ContentConfig{
			GroupVersion:         &corev1.SchemeGroupVersion,
			NegotiatedSerializer: testCodecs.WithoutConversion(),
		},
		QPS: -1,
	}
}

// coreV1Client returns a RESTClient for core/v1 on srv.
func coreV1Client(t *testing.T, srv *httptest.Server, mutate ...func(*Config)) *RESTClient {
	t.Helper()
	cfg := coreV1Config(srv.URL)
	for _, m := range mutate {
		m(cfg)
	}
	c, err := RESTClientFor(cfg)
	if err != nil {
		t.Fatalf("RESTClientFor: %v", err)
	}
	return c
}

// writeJSON answers with obj as a Kubernetes JSON body.
func writeJSON(t *testing.T, w http.ResponseWriter, code int, obj runtime.Object) {
	t.Helper()
	data, err := runtime.Encode(testCodecs.LegacyCodec(corev1.SchemeGroupVersion), obj)
	if err != nil {
		t.Errorf("encode %T: %v", obj, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(data)
}

// statusBody returns a metav1.Status failure as the API server sends it.
func statusBody(code int32, reason metav1.StatusReason, message string) *metav1.Status {
	return &metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure,
		Code:     code,
		Reason:   reason,
		Message:  message,
	}
}

func testPod(name string) *corev1.Pod {
	return &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", ResourceVersion: "7"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "nginx"}}},
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// metricsRecorder captures the rest client metrics for one test. It swaps
// the package-level metric sinks, so tests using it must not run in
// parallel.
type metricsRecorder struct {
	mu            sync.Mutex
	results       []string // "code verb host"
	retries       []string // "code verb host"
	latencies     []string // "verb path"
	limiterWaits  []string // "verb path"
	requestSizes  []float64
	responseSizes []float64
}

func recordMetrics(t *testing.T) *metricsRecorder {
	t.Helper()
	m := &metricsRecorder{}
	oldResult, oldRetry, oldLatency, oldLimiter := metrics.RequestResult, metrics.RequestRetry, metrics.RequestLatency, metrics.RateLimiterLatency
	oldReqSize, oldRespSize := metrics.RequestSize, metrics.ResponseSize
	metrics.RequestResult = resultSink{m}
	metrics.RequestRetry = retrySink{m}
	metrics.RequestLatency = latencySink{m, &m.latencies}
	metrics.RateLimiterLatency = latencySink{m, &m.limiterWaits}
	metrics.RequestSize = sizeSink{m, &m.requestSizes}
	metrics.ResponseSize = sizeSink{m, &m.responseSizes}
	t.Cleanup(func() {
		metrics.RequestResult, metrics.RequestRetry, metrics.RequestLatency, metrics.RateLimiterLatency = oldResult, oldRetry, oldLatency, oldLimiter
		metrics.RequestSize, metrics.ResponseSize = oldReqSize, oldRespSize
	})
	return m
}

func (m *metricsRecorder) snapshot() metricsRecorder {
	m.mu.Lock()
	defer m.mu.Unlock()
	return metricsRecorder{
		results:       append([]string(nil), m.results...),
		retries:       append([]string(nil), m.retries...),
		latencies:     append([]string(nil), m.latencies...),
		limiterWaits:  append([]string(nil), m.limiterWaits...),
		requestSizes:  append([]float64(nil), m.requestSizes...),
		responseSizes: append([]float64(nil), m.responseSizes...),
	}
}

type resultSink struct{ m *metricsRecorder }

func (s resultSink) Increment(_ context.Context, code, method, host string) {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	s.m.results = append(s.m.results, code+" "+method+" "+host)
}

type retrySink struct{ m *metricsRecorder }

func (s retrySink) IncrementRetry(_ context.Context, code, method, host string) {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	s.m.retries = append(s.m.retries, code+" "+method+" "+host)
}

type latencySink struct {
	m    *metricsRecorder
	into *[]string
}

func (s latencySink) Observe(_ context.Context, verb string, u url.URL, _ time.Duration) {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	*s.into = append(*s.into, verb+" "+u.Path)
}

type sizeSink struct {
	m    *metricsRecorder
	into *[]float64
}

func (s sizeSink) Observe(_ context.Context, _ string, _ string, size float64) {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	*s.into = append(*s.into, size)
}

// countingLimiter is a RateLimiter that never waits and counts its uses.
type countingLimiter struct {
	mu    sync.Mutex
	waits int
	err   error
}

func (l *countingLimiter) TryAccept() bool { return true }
func (l *countingLimiter) Accept()         {}
func (l *countingLimiter) Stop()           {}
func (l *countingLimiter) QPS() float32    { return 1 }
func (l *countingLimiter) Wait(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.waits++
	return l.err
}
func (l *countingLimiter) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.waits
}

// recordingBackoff is a BackoffManagerWithContext that records the sleeps
// it is asked for instead of sleeping.
type recordingBackoff struct {
	mu      sync.Mutex
	sleeps  []time.Duration
	updates []int
}

func (b *recordingBackoff) UpdateBackoffWithContext(_ context.Context, _ *url.URL, _ error, code int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.updates = append(b.updates, code)
}

func (b *recordingBackoff) CalculateBackoffWithContext(context.Context, *url.URL) time.Duration {
	return 0
}

func (b *recordingBackoff) SleepWithContext(_ context.Context, d time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if d > 0 {
		b.sleeps = append(b.sleeps, d)
	}
}

func (b *recordingBackoff) recorded() []time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]time.Duration(nil), b.sleeps...)
}

// scriptedServer answers the n-th request with the n-th handler of script
// (the last one repeats) and records the bodies it received.
// scriptedServer answers requests from a script and records their bodies;
// Server is nil when it serves over in-memory connections.
type scriptedServer struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []string
}

// newScriptedServer serves script on a local port: the n-th request is
// answered by script[n], the last one answering all that follow.
func newScriptedServer(t *testing.T, script ...http.HandlerFunc) *scriptedServer {
	s := &scriptedServer{}
	s.Server = httptest.NewServer(s.handler(script))
	t.Cleanup(s.Close)
	return s
}

// newScriptedPipeServer serves script, as newScriptedServer does, over
// in-memory connections that a synctest bubble sees blocking; it returns
// a core/v1 client of it and the function that ends the server.
func newScriptedPipeServer(t *testing.T, script ...http.HandlerFunc) (s *scriptedServer, client *RESTClient, closeAll func()) {
	s = &scriptedServer{}
	n, closeAll := newPipeNet(s.handler(script))
	cfg := coreV1Config("http://pipe")
	cfg.Dial = n.DialContext
	client, err := RESTClientFor(cfg)
	if err != nil {
		closeAll()
		t.Fatalf("RESTClientFor: %v", err)
	}
	return s, client, closeAll
}

// handler records each request's body and answers it from script.
func (s *scriptedServer) handler(script []http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		n := len(s.bodies)
		s.bodies = append(s.bodies, string(body))
		s.mu.Unlock()
		script[min(n, len(script)-1)](w, r)
	})
}

func (s *scriptedServer) received() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.bodies...)
}

func throttled(seconds string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if seconds != "" {
			w.Header().Set("Retry-After", seconds)
		}
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = io.WriteString(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"TooManyRequests","message":"slow down","code":429}`)
	}
}

func unavailable(seconds string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if seconds != "" {
			w.Header().Set("Retry-After", seconds)
		}
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = io.WriteString(w, "overloaded")
	}
}

func okPod(t *testing.T) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { writeJSON(t, w, 200, testPod("ok")) }
}

// encodeAs encodes obj in mediaType with the test codecs.
func encodeAs(t *testing.T, mediaType string, obj runtime.Object) []byte {
	t.Helper()
	return wiretest.Encode(t, testCodecs, mediaType, obj)
}

// warningRecorder is a WarningHandler collecting the texts it is given.
type warningRecorder struct {
	mu   sync.Mutex
	seen []string
}

func (w *warningRecorder) HandleWarningHeader(code int, agent, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seen = append(w.seen, text)
}

func (w *warningRecorder) texts() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.seen...)
}

// offlineClient is a core/v1 client for a server that is never contacted.
func offlineClient(t *testing.T, host string) *RESTClient {
	t.Helper()
	c, err := RESTClientFor(coreV1Config(host))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// secretForms are the ways a secret could show in printed output: as
// text, or as the bytes of a []byte field printed by %v, %#v, %x or %d.
func secretForms(secret string) []string {
	b := []byte(secret)
	return []string{
		secret,
		strings.Trim(fmt.Sprintf("%v", b), "[]"),
		strings.Trim(fmt.Sprintf("%#v", b), "[]uint8{}"),
		fmt.Sprintf("%x", b),
		strings.Trim(fmt.Sprintf("%d", b), "[]"),
	}
}

type fakePersister struct{ saved map[string]string }

func (p *fakePersister) Persist(m map[string]string) error { p.saved = m; return nil }

// settled waits until every goroutine of the caller's synctest bubble but
// the caller is durably blocked, that is until everything the test set
// off has happened up to the bubble's next timer, and fails the test
// unless cond then holds.
func settled(t *testing.T, what string, cond func() bool) {
	t.Helper()
	synctest.Wait()
	if !cond() {
		t.Fatalf("%s: not the case once everything settled", what)
	}
}

// pipeNet serves an http.Handler over in-memory connections (net.Pipe).
// Unlike sockets, a synctest bubble sees a goroutine blocked on them as
// blocked, so a client and a server in one bubble settle like any other
// goroutines. It is the listener of its server and the dialer of the
// clients (Config.Dial).
type pipeNet struct {
	srv   *http.Server
	conns chan net.Conn
	// done is closed by Close; closeOnce guards it.
	done      chan struct{}
	closeOnce sync.Once
}

// newPipeNet serves h until the returned close, which ends every
// connection.
func newPipeNet(h http.Handler) (n *pipeNet, closeAll func()) {
	n = &pipeNet{srv: &http.Server{Handler: h}, conns: make(chan net.Conn), done: make(chan struct{})}
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = n.srv.Serve(n)
	}()
	return n, func() {
		_ = n.srv.Close()
		<-served
	}
}

// Accept hands the server the next connection a client dialled.
func (n *pipeNet) Accept() (net.Conn, error) {
	select {
	case c := <-n.conns:
		return c, nil
	case <-n.done:
		return nil, net.ErrClosed
	}
}

// Close stops Accept and DialContext.
func (n *pipeNet) Close() error {
	n.closeOnce.Do(func() { close(n.done) })
	return nil
}

// Addr names the in-memory network.
func (n *pipeNet) Addr() net.Addr { return pipeAddr{} }

// DialContext connects a client to the server, whatever the address.
func (n *pipeNet) DialContext(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case n.conns <- server:
		return client, nil
	case <-n.done:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// pipeAddr is the address of a pipeNet.
type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }
