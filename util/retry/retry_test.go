package retry

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
)

// fast keeps the tests quick: the same number of steps as DefaultRetry
// without the sleeps.
var fast = wait.Backoff{Steps: DefaultRetry.Steps, Duration: time.Microsecond, Factor: 1}

func TestDefaults(t *testing.T) {
	tests := []struct {
		name string
		got  wait.Backoff
		want wait.Backoff
	}{
		{"DefaultRetry", DefaultRetry, wait.Backoff{Steps: 5, Duration: 10 * time.Millisecond, Factor: 1.0, Jitter: 0.1}},
		{"DefaultBackoff", DefaultBackoff, wait.Backoff{Steps: 4, Duration: 10 * time.Millisecond, Factor: 5.0, Jitter: 0.1}},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s = %+v, want %+v", tc.name, tc.got, tc.want)
		}
	}
}

func TestOnError(t *testing.T) {
	errRetriable := errors.New("try again")
	errFatal := errors.New("give up")
	tests := []struct {
		name      string
		results   []error // what fn returns on successive calls
		wantErr   error
		wantCalls int
	}{
		{name: "first try succeeds", results: []error{nil}, wantErr: nil, wantCalls: 1},
		{name: "succeeds after retries", results: []error{errRetriable, errRetriable, nil}, wantErr: nil, wantCalls: 3},
		{name: "non-retriable stops at once", results: []error{errRetriable, errFatal, nil}, wantErr: errFatal, wantCalls: 2},
		{name: "context error on first try is returned", results: []error{context.Canceled}, wantErr: context.Canceled, wantCalls: 1},
		{name: "deadline error on first try is returned", results: []error{context.DeadlineExceeded}, wantErr: context.DeadlineExceeded, wantCalls: 1},
		{name: "steps run out: last error", results: []error{errRetriable, errRetriable, errRetriable, errRetriable, errRetriable, nil}, wantErr: errRetriable, wantCalls: 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			err := OnError(fast, func(err error) bool { return errors.Is(err, errRetriable) }, func() error {
				calls++
				return tc.results[calls-1]
			})
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
				t.Fatalf("OnError = %v, want %v", err, tc.wantErr)
			}
			if calls != tc.wantCalls {
				t.Fatalf("fn called %d times, want %d", calls, tc.wantCalls)
			}
		})
	}
}

// conflictServer answers PUTs of a ConfigMap with 409 Conflict and a
// metav1.Status body, as the API server does for a stale resourceVersion,
// until conflicts run out; then it answers 200 with the object.
func conflictServer(t *testing.T, conflicts int32, otherStatus int) (*httptest.Server, *atomic.Int32) {
	var puts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPut {
			http.Error(w, "unexpected method", http.StatusMethodNotAllowed)
			return
		}
		n := puts.Add(1)
		w.Header().Set("Content-Type", "application/json")
		status := func(code int32, reason metav1.StatusReason, msg string) {
			w.WriteHeader(int(code))
			json.NewEncoder(w).Encode(metav1.Status{
				TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
				Status:   metav1.StatusFailure, Code: code, Reason: reason, Message: msg,
				Details: &metav1.StatusDetails{Name: "cm", Kind: "configmaps"},
			})
		}
		switch {
		case otherStatus != 0:
			status(int32(otherStatus), metav1.StatusReasonForbidden, `configmaps "cm" is forbidden`)
		case n <= conflicts:
			status(http.StatusConflict, metav1.StatusReasonConflict,
				`Operation cannot be fulfilled on configmaps "cm": the object has been modified; please apply your changes to the latest version and try again`)
		default:
			body, _ := io.ReadAll(r.Body)
			w.Write(body)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &puts
}

// update PUTs a ConfigMap and turns a metav1.Status error body into the
// *apierrors.StatusError a clientset would return.
func update(url string) error {
	body := []byte(`{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cm","namespace":"default","resourceVersion":"1"}}`)
	req, err := http.NewRequest(http.MethodPut, url+"/api/v1/namespaces/default/configmaps/cm", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		return nil
	}
	var st metav1.Status
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return fmt.Errorf("decoding %d response: %w", resp.StatusCode, err)
	}
	return &apierrors.StatusError{ErrStatus: st}
}

func TestRetryOnConflict(t *testing.T) {
	tests := []struct {
		name        string
		conflicts   int32
		otherStatus int
		wantPuts    int32
		wantErr     func(error) bool
	}{
		{name: "no conflict", conflicts: 0, wantPuts: 1, wantErr: func(err error) bool { return err == nil }},
		{name: "two conflicts then success", conflicts: 2, wantPuts: 3, wantErr: func(err error) bool { return err == nil }},
		{name: "conflicts exhaust the backoff", conflicts: 100, wantPuts: int32(fast.Steps), wantErr: apierrors.IsConflict},
		{name: "forbidden is not retried", otherStatus: http.StatusForbidden, wantPuts: 1, wantErr: apierrors.IsForbidden},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, puts := conflictServer(t, tc.conflicts, tc.otherStatus)
			err := RetryOnConflict(fast, func() error { return update(srv.URL) })
			if !tc.wantErr(err) {
				t.Fatalf("RetryOnConflict returned %v", err)
			}
			if got := puts.Load(); got != tc.wantPuts {
				t.Fatalf("server saw %d PUTs, want %d", got, tc.wantPuts)
			}
		})
	}
}
