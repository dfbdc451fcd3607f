package rest

import (
	"errors"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/net"
)

// TestResultDecoding builds Results as transformResponse does and checks
// what Get, Into and Error make of them.
func TestResultDecoding(t *testing.T) {
	decoder := testCodecs.UniversalDeserializer()
	pod := jsonOf(t, testPod("a"))
	failure := jsonOf(t, statusBody(409, metav1.StatusReasonConflict, "try again"))
	success := jsonOf(t, &metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: metav1.StatusSuccess})
	serverErr := apierrors.NewGenericServerResponse(409, "PUT", schema.GroupResource{Resource: "pods"}, "a", "", 0, true)
	tests := []struct {
		name       string
		result     Result
		wantGet    string // the name of the pod Get returns, or "status" for a Status
		wantGetErr func(error) bool
		wantInto   func(error) bool // Into a Pod; nil: no error
		wantErr    func(error) bool // Error(); nil: no error
	}{
		{name: "a pod", result: Result{body: []byte(pod), decoder: decoder, statusCode: 200},
			wantGet: "a"},
		{name: "a Status that is not a success is an error", result: Result{body: []byte(failure), decoder: decoder, statusCode: 200},
			wantGetErr: apierrors.IsConflict, wantInto: apierrors.IsConflict},
		{name: "a successful Status is an object", result: Result{body: []byte(success), decoder: decoder, statusCode: 200},
			wantGet: "status"},
		{name: "an empty body cannot be decoded into an object", result: Result{decoder: decoder, statusCode: 204, contentType: "application/json"},
			wantGetErr: anyError, wantInto: func(err error) bool {
				return err != nil && strings.Contains(err.Error(), "0-length response with status code: 204")
			}},
		{name: "no decoder for the body", result: Result{body: []byte("x"), contentType: "application/x-unknown", statusCode: 200},
			wantGetErr: containing("serializer for application/x-unknown doesn't exist"),
			wantInto:   containing("serializer for application/x-unknown doesn't exist")},
		{name: "a failure with a Status body is the Status", result: Result{err: serverErr, body: []byte(failure), decoder: decoder, statusCode: 409},
			wantGetErr: containing("try again"), wantInto: containing("try again"), wantErr: containing("try again")},
		{name: "a failure with another body keeps its error", result: Result{err: serverErr, body: []byte(pod), decoder: decoder, statusCode: 409},
			wantGetErr: isError(serverErr), wantInto: isError(serverErr), wantErr: isError(serverErr)},
		{name: "a failure with an undecodable body keeps its error", result: Result{err: serverErr, body: []byte("{"), decoder: decoder, statusCode: 409},
			wantGetErr: isError(serverErr), wantInto: isError(serverErr), wantErr: isError(serverErr)},
		{name: "a transport error is the error", result: Result{err: errors.New("connection reset")},
			wantGetErr: containing("connection reset"), wantInto: containing("connection reset"), wantErr: containing("connection reset")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			obj, err := tc.result.Get()
			switch {
			case tc.wantGetErr != nil:
				if err == nil || !tc.wantGetErr(err) {
					t.Errorf("Get() error = %v", err)
				}
			case err != nil:
				t.Errorf("Get() error = %v", err)
			case describeResultObject(obj) != tc.wantGet:
				t.Errorf("Get() = %s, want %s", describeResultObject(obj), tc.wantGet)
			}
			into := &corev1.Pod{}
			if err := tc.result.Into(into); (tc.wantInto == nil) != (err == nil) || (err != nil && !tc.wantInto(err)) {
				t.Errorf("Into() = %v", err)
			} else if err == nil && tc.wantGet != "status" && into.Name != tc.wantGet {
				t.Errorf("Into() decoded %q, want %q", into.Name, tc.wantGet)
			}
			if err := tc.result.Error(); (tc.wantErr == nil) != (err == nil) || (err != nil && !tc.wantErr(err)) {
				t.Errorf("Error() = %v", err)
			}
		})
	}
}

// TestResultIntoAStatus: a Status decoded into a Status the caller gave
// is that object, not an error.
func TestResultIntoAStatus(t *testing.T) {
	r := Result{body: []byte(jsonOf(t, statusBody(409, metav1.StatusReasonConflict, "try again"))), decoder: testCodecs.UniversalDeserializer()}
	status := &metav1.Status{}
	if err := r.Into(status); err != nil || status.Reason != metav1.StatusReasonConflict {
		t.Errorf("Into(Status) = %v, reason %q", err, status.Reason)
	}
}

func TestResultAccessors(t *testing.T) {
	warnings := []net.WarningHeader{{Code: 299, Text: "deprecated"}}
	tests := []struct {
		code        int
		wantCreated bool
	}{
		{code: 200},
		{code: 201, wantCreated: true},
		{code: 202},
	}
	for _, tc := range tests {
		r := Result{statusCode: tc.code, contentType: "application/json", warnings: warnings, body: []byte("{}")}
		var code int
		var contentType string
		var created bool
		r.StatusCode(&code).ContentType(&contentType).WasCreated(&created)
		if code != tc.code || contentType != "application/json" || created != tc.wantCreated {
			t.Errorf("code %d: got %d %q created=%v", tc.code, code, contentType, created)
		}
		if got := r.Warnings(); len(got) != 1 || got[0].Text != "deprecated" {
			t.Errorf("Warnings() = %+v", got)
		}
		if raw, err := r.Raw(); string(raw) != "{}" || err != nil {
			t.Errorf("Raw() = %q, %v", raw, err)
		}
	}
}

// describeResultObject names a decoded object: a pod's name, or "status".
func describeResultObject(obj runtime.Object) string {
	switch o := obj.(type) {
	case *corev1.Pod:
		return o.Name
	case *metav1.Status:
		return "status"
	}
	return "unexpected"
}

// anyError accepts every error.
func anyError(err error) bool { return err != nil }

// containing accepts errors whose message holds s.
func containing(s string) func(error) bool {
	return func(err error) bool { return err != nil && strings.Contains(err.Error(), s) }
}

// isError accepts target itself.
func isError(target error) func(error) bool {
	return func(err error) bool { return errors.Is(err, target) }
}
