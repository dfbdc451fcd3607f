package rest

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestDoGetIntoJSON(t *testing.T) {
	var gotPath, gotAccept, gotMethod string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotPath, gotAccept, gotMethod = r.URL.Path, r.Header.Get("Accept"), r.Method
		writeJSON(t, w, http.StatusOK, testPod("web"))
	}))
	defer srv.Close()

	c := coreV1Client(t, srv)
	var pod corev1.Pod
	var code int
	var contentType string
	res := c.Get().Namespace("default").Resource("pods").Name("web").Do(context.Background())
	if err := res.StatusCode(&code).ContentType(&contentType).Into(&pod); err != nil {
		t.Fatal(err)
	}
	if pod.Name != "web" || pod.Spec.Containers[0].Image != "nginx" {
		t.Errorf("decoded %+v", pod)
	}
	if code != 200 || contentType != "application/json" {
		t.Errorf("code %d content type %q", code, contentType)
	}
	if gotMethod != "GET" || gotPath != "/api/v1/namespaces/default/pods/web" || gotAccept != "application/json, */*" {
		t.Errorf("server saw %s %s Accept=%q", gotMethod, gotPath, gotAccept)
	}

	obj, err := res.Get()
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := obj.(*corev1.Pod); !ok || p.Name != "web" {
		t.Errorf("Get returned %T %v", obj, obj)
	}
	raw, err := res.Raw()
	if err != nil || !strings.Contains(string(raw), `"name":"web"`) {
		t.Errorf("Raw: %v %s", err, raw)
	}
}

func TestDoPostWasCreated(t *testing.T) {
	var gotBody []byte
	var gotContentType string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotBody, _ = io.ReadAll(r.Body)
		gotContentType = r.Header.Get("Content-Type")
		writeJSON(t, w, http.StatusCreated, testPod("created"))
	}))
	defer srv.Close()

	c := coreV1Client(t, srv)
	var created bool
	var out corev1.Pod
	err := c.Post().Namespace("default").Resource("pods").Body(testPod("new")).Do(context.Background()).WasCreated(&created).Into(&out)
	if err != nil {
		t.Fatal(err)
	}
	if !created || out.Name != "created" {
		t.Errorf("created=%v name=%q", created, out.Name)
	}
	if gotContentType != "application/json" || !strings.Contains(string(gotBody), `"name":"new"`) {
		t.Errorf("server got %q %s", gotContentType, gotBody)
	}

	// A 200 is not "created".
	srv2 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(t, w, http.StatusOK, testPod("x"))
	}))
	defer srv2.Close()
	c.Put().Resource("pods").Name("x").Body([]byte("{}")).Do(context.Background()).WasCreated(&created)
	c2 := coreV1Client(t, srv2)
	c2.Put().Resource("pods").Name("x").Body([]byte("{}")).Do(context.Background()).WasCreated(&created)
	if created {
		t.Error("WasCreated true for 200")
	}
}

func TestProtobufNegotiation(t *testing.T) {
	const proto = "application/vnd.kubernetes.protobuf"
	var answerJSON atomic.Bool
	var gotAccept, gotContentType string
	var gotBody []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAccept, gotContentType = r.Header.Get("Accept"), r.Header.Get("Content-Type")
		gotBody, _ = io.ReadAll(r.Body)
		if answerJSON.Load() {
			writeJSON(t, w, 200, testPod("as-json"))
			return
		}
		w.Header().Set("Content-Type", proto)
		_, _ = w.Write(encodeAs(t, proto, testPod("as-proto")))
	}))
	defer srv.Close()

	c := coreV1Client(t, srv, func(c *Config) {
		c.ContentType = proto
		c.AcceptContentTypes = proto + ",application/json"
	})
	var pod corev1.Pod
	if err := c.Put().Namespace("default").Resource("pods").Name("p").Body(testPod("p")).Do(context.Background()).Into(&pod); err != nil {
		t.Fatal(err)
	}
	if pod.Name != "as-proto" {
		t.Errorf("decoded %q", pod.Name)
	}
	if gotAccept != proto+",application/json" || gotContentType != proto || !strings.HasPrefix(string(gotBody), "k8s\x00") {
		t.Errorf("server saw Accept=%q Content-Type=%q body=%q", gotAccept, gotContentType, gotBody)
	}

	// The response is decoded by its own Content-Type, whatever was asked.
	answerJSON.Store(true)
	if err := c.Get().Namespace("default").Resource("pods").Name("p").Do(context.Background()).Into(&pod); err != nil {
		t.Fatal(err)
	}
	if pod.Name != "as-json" {
		t.Errorf("decoded %q", pod.Name)
	}
}

func TestAcceptContentTypesAsTable(t *testing.T) {
	const tableAccept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json"
	var gotAccept string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAccept = r.Header.Get("Accept")
		w.Header().Set("Content-Type", "application/json;as=Table;v=v1;g=meta.k8s.io")
		_, _ = w.Write([]byte(`{"kind":"Table","apiVersion":"meta.k8s.io/v1","columnDefinitions":[{"name":"Name","type":"string"}],"rows":[{"cells":["web"]}]}`))
	}))
	defer srv.Close()
	c := coreV1Client(t, srv, func(c *Config) { c.AcceptContentTypes = tableAccept })
	raw, err := c.Get().Resource("pods").DoRaw(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if gotAccept != tableAccept {
		t.Errorf("Accept = %q", gotAccept)
	}
	if !strings.Contains(string(raw), `"cells":["web"]`) {
		t.Errorf("raw = %s", raw)
	}
}

func TestUndecodableContentTypeKeepsBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write([]byte{0, 1, 2})
	}))
	defer srv.Close()
	res := coreV1Client(t, srv).Get().AbsPath("/blob").Do(context.Background())
	if res.Error() != nil {
		t.Fatal(res.Error())
	}
	raw, _ := res.Raw()
	if len(raw) != 3 {
		t.Errorf("raw = %v", raw)
	}
	if _, err := res.Get(); err == nil || !strings.Contains(err.Error(), "serializer for application/octet-stream doesn't exist") {
		t.Errorf("Get err = %v", err)
	}
	var pod corev1.Pod
	if err := res.Into(&pod); err == nil {
		t.Error("Into succeeded without a decoder")
	}
}

func TestErrorResponses(t *testing.T) {
	tests := []struct {
		name        string
		code        int
		contentType string
		body        string
		retryAfter  string
		check       func(error) bool
		wantMessage string
	}{
		{
			name: "status not found", code: 404, contentType: "application/json",
			body:  `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"pods \"web\" not found","reason":"NotFound","details":{"name":"web","kind":"pods"},"code":404}`,
			check: apierrors.IsNotFound, wantMessage: `pods "web" not found`,
		},
		{
			name: "status conflict", code: 409, contentType: "application/json",
			body:  `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"the object has been modified","reason":"Conflict","code":409}`,
			check: apierrors.IsConflict, wantMessage: "the object has been modified",
		},
		{
			name: "status invalid", code: 422, contentType: "application/json",
			body:  `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"Pod \"x\" is invalid","reason":"Invalid","details":{"causes":[{"reason":"FieldValueRequired","field":"spec.containers"}]},"code":422}`,
			check: apierrors.IsInvalid, wantMessage: `Pod "x" is invalid`,
		},
		{
			name: "plain text forbidden", code: 403, contentType: "text/plain",
			body:  "forbidden: user cannot get pods\n",
			check: apierrors.IsForbidden, wantMessage: "forbidden: user cannot get pods",
		},
		{
			name: "no content type", code: 401, contentType: "",
			body:  "Unauthorized",
			check: apierrors.IsUnauthorized,
		},
		{
			name: "binary body", code: 500, contentType: "application/octet-stream",
			body:  "\x00\x01",
			check: apierrors.IsInternalError, wantMessage: "unknown",
		},
		{
			name: "json not a status", code: 500, contentType: "application/json",
			body:  `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"odd"}}`,
			check: apierrors.IsInternalError,
		},
		{
			name: "service unavailable with retry-after", code: 503, contentType: "text/plain",
			body: "try later", retryAfter: "7",
			check: func(err error) bool {
				d, ok := apierrors.SuggestsClientDelay(err)
				return apierrors.IsServiceUnavailable(err) && ok && d == 7
			},
		},
		{
			name: "too many requests", code: 429, contentType: "application/json",
			body:  `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"slow down","reason":"TooManyRequests","code":429}`,
			check: apierrors.IsTooManyRequests, wantMessage: "slow down",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tc.contentType != "" {
					w.Header().Set("Content-Type", tc.contentType)
				} else {
					w.Header()["Content-Type"] = nil
				}
				if tc.retryAfter != "" {
					w.Header().Set("Retry-After", tc.retryAfter)
				}
				w.WriteHeader(tc.code)
				_, _ = io.WriteString(w, tc.body)
			}))
			defer srv.Close()
			c := coreV1Client(t, srv)
			newReq := func() *Request {
				return c.Get().Namespace("default").Resource("pods").Name("web").MaxRetries(0)
			}
			errs := map[string]error{}
			errs["Do"] = newReq().Do(context.Background()).Error()
			var pod corev1.Pod
			errs["Into"] = newReq().Do(context.Background()).Into(&pod)
			_, errs["Get"] = newReq().Do(context.Background()).Get()
			_, errs["DoRaw"] = newReq().DoRaw(context.Background())
			_, errs["Stream"] = newReq().Stream(context.Background())
			_, errs["Watch"] = newReq().Watch(context.Background())
			for via, err := range errs {
				var statusErr *apierrors.StatusError
				if !errors.As(err, &statusErr) {
					t.Errorf("%s: error %T %v is not a StatusError", via, err, err)
					continue
				}
				if int(statusErr.ErrStatus.Code) != tc.code {
					t.Errorf("%s: code %d, want %d", via, statusErr.ErrStatus.Code, tc.code)
				}
				if !tc.check(err) {
					t.Errorf("%s: %v (reason %q) does not match the expected class", via, err, apierrors.ReasonForError(err))
				}
				// DoRaw never decodes a Status, so only the text forms apply.
				if tc.wantMessage != "" && (via != "DoRaw" || !strings.HasPrefix(tc.contentType, "application/json")) && !strings.Contains(err.Error(), tc.wantMessage) {
					t.Errorf("%s: message %q lacks %q", via, err.Error(), tc.wantMessage)
				}
			}
		})
	}
}

func TestUnstructuredErrorNamesResource(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(404)
		_, _ = io.WriteString(w, "404 page not found")
	}))
	defer srv.Close()
	err := coreV1Client(t, srv).Get().Namespace("ns").Resource("pods").Name("web").Do(context.Background()).Error()
	var statusErr *apierrors.StatusError
	if !errors.As(err, &statusErr) || statusErr.ErrStatus.Details == nil {
		t.Fatalf("err = %#v", err)
	}
	if d := statusErr.ErrStatus.Details; d.Name != "web" || d.Kind != "pods" {
		t.Errorf("details = %+v", d)
	}
	if !apierrors.IsNotFound(err) {
		t.Errorf("not NotFound: %v", err)
	}
}

func TestSuccessStatusBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(t, w, 200, &metav1.Status{Status: metav1.StatusSuccess, Code: 200})
	}))
	defer srv.Close()
	if err := coreV1Client(t, srv).Delete().Namespace("ns").Resource("pods").Name("x").Do(context.Background()).Error(); err != nil {
		t.Errorf("delete returning a success Status: %v", err)
	}
}

func TestFailureStatusWith200IsAnError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(t, w, 200, statusBody(410, metav1.StatusReasonGone, "too old"))
	}))
	defer srv.Close()
	_, err := coreV1Client(t, srv).Get().Resource("pods").Do(context.Background()).Get()
	if !apierrors.IsGone(err) {
		t.Errorf("Get err = %v", err)
	}
	var status metav1.Status
	if err := coreV1Client(t, srv).Get().Resource("pods").Do(context.Background()).Into(&status); err != nil || status.Reason != metav1.StatusReasonGone {
		t.Errorf("Into a Status should decode it: %v %+v", err, status)
	}
	var pod corev1.Pod
	if err := coreV1Client(t, srv).Get().Resource("pods").Do(context.Background()).Into(&pod); err == nil {
		t.Error("Into a Pod from a failure Status should fail")
	}
}

func TestEmptyBodyInto(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(200)
	}))
	defer srv.Close()
	var pod corev1.Pod
	err := coreV1Client(t, srv).Get().Resource("pods").Do(context.Background()).Into(&pod)
	if err == nil || !strings.Contains(err.Error(), "0-length response with status code: 200") {
		t.Errorf("err = %v", err)
	}
}

func TestStream(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("follow") != "true" {
			t.Errorf("query = %v", r.URL.Query())
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Add("Warning", `299 - "logs are old"`)
		_, _ = io.WriteString(w, "line 1\nline 2\n")
	}))
	defer srv.Close()
	var warnings warningRecorder
	rc, err := coreV1Client(t, srv).Get().Namespace("ns").Resource("pods").Name("web").SubResource("log").
		Param("follow", "true").WarningHandler(&warnings).Stream(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	data, _ := io.ReadAll(rc)
	if string(data) != "line 1\nline 2\n" {
		t.Errorf("stream = %q", data)
	}
	if got := warnings.texts(); len(got) != 1 || got[0] != "logs are old" {
		t.Errorf("warnings = %v", got)
	}
}

// TestContextCancellation cancels each kind of request while the server
// holds it, inside a synctest bubble over in-memory connections: once
// everything has settled after the cancellation, the request must have
// returned context.Canceled.
func TestContextCancellation(t *testing.T) {
	tests := []struct {
		name string
		run  func(c *RESTClient, ctx context.Context) error
	}{
		{"Do", func(c *RESTClient, ctx context.Context) error { return c.Get().Resource("pods").Do(ctx).Error() }},
		{"DoRaw", func(c *RESTClient, ctx context.Context) error {
			_, err := c.Get().Resource("pods").DoRaw(ctx)
			return err
		}},
		{"Stream", func(c *RESTClient, ctx context.Context) error {
			_, err := c.Get().Resource("pods").Stream(ctx)
			return err
		}},
		{"Watch", func(c *RESTClient, ctx context.Context) error {
			_, err := c.Get().Resource("pods").Watch(ctx)
			return err
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv, c, closeAll := newScriptedPipeServer(t, func(w http.ResponseWriter, r *http.Request) {
					<-r.Context().Done()
				})
				defer closeAll()
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan error, 1)
				go func() { done <- tc.run(c, ctx) }()
				settled(t, "the server holds the request", func() bool { return len(srv.received()) == 1 && len(done) == 0 })
				cancel()
				settled(t, "the request ended after cancellation", func() bool { return len(done) == 1 })
				if err := <-done; !errors.Is(err, context.Canceled) {
					t.Errorf("err = %v, want context.Canceled", err)
				}
			})
		})
	}
}

// TestRequestTimeout sends a request with a timeout to a server that
// answers only when the request ends, inside a synctest bubble over
// in-memory connections: the request fails with a deadline error exactly
// when its timeout has passed on the bubble's clock, and tells the server
// its timeout.
func TestRequestTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		gotTimeout := make(chan string, 1)
		_, c, closeAll := newScriptedPipeServer(t, func(w http.ResponseWriter, r *http.Request) {
			gotTimeout <- r.URL.Query().Get("timeout")
			<-r.Context().Done()
		})
		defer closeAll()
		start := time.Now()
		err := c.Get().Resource("pods").Timeout(100 * time.Millisecond).Do(context.Background()).Error()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want a deadline error", err)
		}
		if d := time.Since(start); d != 100*time.Millisecond {
			t.Errorf("the request ended after %v, want its timeout, 100ms", d)
		}
		if got := <-gotTimeout; got != "100ms" {
			t.Errorf("timeout parameter = %q", got)
		}
	})
}

func TestClientTimeoutBecomesRequestTimeout(t *testing.T) {
	c := offlineClient(t, "http://example.com")
	c.Client = &http.Client{Timeout: 3 * time.Second}
	if got := c.Get().URL().Query().Get("timeout"); got != "3s" {
		t.Errorf("timeout = %q", got)
	}
}

func TestTransportErrorIsReturned(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	addr := srv.URL
	srv.Close()
	c := coreV1Client(t, &httptest.Server{URL: addr})
	err := c.Post().Resource("pods").Body([]byte("{}")).Do(context.Background()).Error()
	if err == nil || apierrors.IsNotFound(err) {
		t.Fatalf("err = %v", err)
	}
	var statusErr *apierrors.StatusError
	if errors.As(err, &statusErr) {
		t.Errorf("a dial failure should not be a StatusError: %v", err)
	}
}
