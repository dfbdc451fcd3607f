package rest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2/textlogger"
)

// jsonOf is obj as JSON.
func jsonOf(t *testing.T, obj interface{}) string {
	t.Helper()
	data, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestTransformResponse turns responses of a GET of pod "a" into Results:
// the body and its decoder, the status code, the warnings, and for a
// failure the error that Result.Error gives.
func TestTransformResponse(t *testing.T) {
	pod := jsonOf(t, testPod("a"))
	tests := []struct {
		name        string
		code        int
		header      http.Header
		body        string
		wantErr     func(error) bool // nil: no error
		wantMessage string           // a part of the error's message
		hidden      string           // what the error's message must not hold
		wantPod     bool             // Get decodes the pod
		wantType    string           // ContentType
		wantWarning string
	}{
		{name: "a pod", code: 200, header: http.Header{"Content-Type": {"application/json"}}, body: pod,
			wantPod: true, wantType: "application/json"},
		{name: "no Content-Type: the request's", code: 200, body: pod, wantPod: true, wantType: "application/json"},
		{name: "warnings are returned", code: 200, body: pod, wantPod: true, wantType: "application/json",
			header: http.Header{"Warning": {`299 - "pods are deprecated"`}}, wantWarning: "pods are deprecated"},
		{name: "a failure with a Status body is that Status", code: 409, header: http.Header{"Content-Type": {"application/json"}},
			body:    jsonOf(t, statusBody(409, metav1.StatusReasonAlreadyExists, "pod a exists")),
			wantErr: apierrors.IsAlreadyExists, wantMessage: "pod a exists", wantType: "application/json"},
		{name: "a failure without a Status body follows the code", code: 404, header: http.Header{"Content-Type": {"application/json"}},
			body: `{"not":"a status"}`, wantErr: apierrors.IsNotFound, wantType: "application/json"},
		{name: "a textual failure is quoted", code: 500, header: http.Header{"Content-Type": {"text/plain"}},
			body: "  etcd is down \n", wantErr: apierrors.IsInternalError, wantMessage: "etcd is down"},
		{name: "an opaque failure is not quoted", code: 503, header: http.Header{"Content-Type": {"application/octet-stream"}},
			body: "\x00\x01secret", wantErr: apierrors.IsServiceUnavailable, wantMessage: "unable to handle the request", hidden: "secret"},
		{name: "Retry-After reaches the error", code: 429, header: http.Header{"Content-Type": {"text/plain"}, "Retry-After": {"7"}},
			body: "slow down", wantErr: func(err error) bool {
				seconds, ok := apierrors.SuggestsClientDelay(err)
				return apierrors.IsTooManyRequests(err) && ok && seconds == 7
			}},
		{name: "a body without a decoder is kept raw", code: 200, header: http.Header{"Content-Type": {"application/x-unknown"}},
			body: "raw bytes", wantType: "application/x-unknown"},
		{name: "an unparsable Content-Type", code: 200, header: http.Header{"Content-Type": {"application/json; ==="}},
			body: pod, wantErr: apierrors.IsInternalError},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := offlineClient(t, "http://example.com")
			req := c.Get().Namespace("default").Resource("pods").Name("a")
			httpReq, err := http.NewRequest(http.MethodGet, "http://example.com/api/v1/namespaces/default/pods/a", nil)
			if err != nil {
				t.Fatal(err)
			}
			header := tc.header
			if header == nil {
				header = http.Header{}
			}
			resp := &http.Response{StatusCode: tc.code, Header: header, Body: io.NopCloser(strings.NewReader(tc.body))}
			result := req.transformResponse(context.Background(), resp, httpReq, false)

			err = result.Error()
			switch {
			case tc.wantErr == nil && err != nil:
				t.Fatalf("Error() = %v", err)
			case tc.wantErr != nil && (err == nil || !tc.wantErr(err)):
				t.Fatalf("Error() = %v (%T)", err, err)
			case tc.wantErr != nil && !strings.Contains(err.Error(), tc.wantMessage):
				t.Errorf("Error() = %q, want it to hold %q", err, tc.wantMessage)
			case tc.hidden != "" && strings.Contains(err.Error(), tc.hidden):
				t.Errorf("Error() = %q quotes an opaque body", err)
			}
			var code int
			var contentType string
			result.StatusCode(&code).ContentType(&contentType)
			if tc.wantErr == nil || tc.wantType != "" {
				if code != tc.code || contentType != tc.wantType {
					t.Errorf("status %d, content type %q; want %d, %q", code, contentType, tc.code, tc.wantType)
				}
			}
			if tc.wantPod {
				obj, err := result.Get()
				if p, ok := obj.(*corev1.Pod); err != nil || !ok || p.Name != "a" {
					t.Errorf("Get() = %v, %v", obj, err)
				}
			}
			if tc.wantErr == nil && !tc.wantPod {
				if raw, _ := result.Raw(); string(raw) != tc.body {
					t.Errorf("Raw() = %q, want %q", raw, tc.body)
				}
			}
			if warnings := result.Warnings(); tc.wantWarning != "" && (len(warnings) != 1 || warnings[0].Text != tc.wantWarning) {
				t.Errorf("Warnings() = %+v, want %q", warnings, tc.wantWarning)
			}
		})
	}
}

func TestQuotedBody(t *testing.T) {
	long := strings.Repeat("x", maxUnstructuredResponseTextBytes+10)
	tests := []struct {
		name   string
		body   string
		isText bool
		want   string
	}{
		{name: "text is trimmed", body: "  down \n", isText: true, want: "down"},
		{name: "text is cut to the bound", body: long, isText: true, want: long[:maxUnstructuredResponseTextBytes]},
		{name: "other bodies are not quoted", body: "secret", want: "unknown"},
		{name: "an empty text body", isText: true, want: ""},
	}
	for _, tc := range tests {
		if got := quotedBody([]byte(tc.body), tc.isText); got != tc.want {
			t.Errorf("%s: quotedBody = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestResponseHeaders(t *testing.T) {
	tests := []struct {
		name        string
		header      http.Header
		wantText    bool
		wantRetry   int
		wantRetryOK bool
	}{
		{name: "no headers", header: http.Header{}, wantText: true},
		{name: "plain text", header: http.Header{"Content-Type": {"text/plain; charset=utf-8"}}, wantText: true},
		{name: "JSON", header: http.Header{"Content-Type": {"application/json"}}},
		{name: "an unparsable type", header: http.Header{"Content-Type": {"text/plain; ==="}}},
		{name: "Retry-After in seconds", header: http.Header{"Retry-After": {"12"}}, wantText: true, wantRetry: 12, wantRetryOK: true},
		{name: "Retry-After as a date is ignored", header: http.Header{"Retry-After": {"Wed, 21 Oct 2015 07:28:00 GMT"}}, wantText: true},
	}
	for _, tc := range tests {
		resp := &http.Response{Header: tc.header}
		if got := isTextResponse(resp); got != tc.wantText {
			t.Errorf("%s: isTextResponse = %v", tc.name, got)
		}
		if seconds, ok := retryAfterSeconds(resp); seconds != tc.wantRetry || ok != tc.wantRetryOK {
			t.Errorf("%s: retryAfterSeconds = %d, %v", tc.name, seconds, ok)
		}
	}
}

func TestTruncateForLog(t *testing.T) {
	body := strings.Repeat("b", 20000)
	tests := []struct {
		verbosity int
		wantLen   int
	}{
		{verbosity: 8, wantLen: 1024},
		{verbosity: 9, wantLen: 10240},
		{verbosity: 10, wantLen: len(body)},
	}
	for _, tc := range tests {
		logger := textlogger.NewLogger(textlogger.NewConfig(textlogger.Verbosity(tc.verbosity), textlogger.Output(io.Discard)))
		got := truncateForLog(logger, body)
		if kept := strings.Count(got, "b"); kept != tc.wantLen {
			t.Errorf("-v=%d: kept %d bytes, want %d", tc.verbosity, kept, tc.wantLen)
		}
		if tc.wantLen < len(body) && !strings.HasSuffix(got, " [truncated "+strconv.Itoa(len(body)-tc.wantLen)+" chars]") {
			t.Errorf("-v=%d: %q does not say what was cut", tc.verbosity, got[len(got)-40:])
		}
	}
	verbose := textlogger.NewLogger(textlogger.NewConfig(textlogger.Verbosity(8), textlogger.Output(io.Discard)))
	if got := truncateForLog(verbose, "short"); got != "short" {
		t.Errorf("a short body was changed: %q", got)
	}
}
