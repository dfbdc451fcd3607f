package cache

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"testing"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestReflectorErrorClassification(t *testing.T) {
	timeoutWith := func(msg string, causes ...metav1.StatusCause) error {
		err := apierrors.NewTimeoutError(msg, 1)
		if causes != nil {
			err.ErrStatus.Details = &metav1.StatusDetails{Causes: causes}
		} else {
			err.ErrStatus.Details = &metav1.StatusDetails{}
		}
		return err
	}
	refused := &net.OpError{Op: "dial", Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}}
	tests := []struct {
		name                         string
		err                          error
		expired, tooLarge, retriable bool
	}{
		{name: "expired", err: apierrors.NewResourceExpired("too old"), expired: true},
		{name: "gone", err: apierrors.NewGone("gone"), expired: true},
		{name: "wrapped expired", err: fmt.Errorf("watch: %w", apierrors.NewResourceExpired("too old")), expired: true},
		{name: "too large by cause", err: tooLargeResourceVersion(5, 3), tooLarge: true},
		{name: "too large in a cause message", err: timeoutWith("timeout", metav1.StatusCause{Message: "Too large resource version"}), tooLarge: true},
		{name: "too large in the message", err: timeoutWith("Too large resource version: 5, current: 3"), tooLarge: true},
		{name: "too large in a timeout without details", err: &apierrors.StatusError{ErrStatus: metav1.Status{
			Status: metav1.StatusFailure, Reason: metav1.StatusReasonTimeout, Code: 504, Message: "Too large resource version"}}},
		{name: "plain timeout", err: timeoutWith("timeout")},
		{name: "throttled", err: apierrors.NewTooManyRequests("slow down", 1), retriable: true},
		{name: "connection refused", err: refused, retriable: true},
		{name: "internal error", err: apierrors.NewInternalError(errors.New("boom"))},
		{name: "nil", err: nil},
	}
	for _, tc := range tests {
		if got := isExpiredError(tc.err); got != tc.expired {
			t.Errorf("%s: isExpiredError = %v", tc.name, got)
		}
		if got := isTooLargeResourceVersionError(tc.err); got != tc.tooLarge {
			t.Errorf("%s: isTooLargeResourceVersionError = %v", tc.name, got)
		}
		if got := isWatchErrorRetriable(tc.err); got != tc.retriable {
			t.Errorf("%s: isWatchErrorRetriable = %v", tc.name, got)
		}
	}
}

// TestDefaultWatchErrorHandler checks that every kind of error is handled
// without trouble; what is logged at which level is not asserted.
func TestDefaultWatchErrorHandler(t *testing.T) {
	r := NewNamedReflector("handler-test", &scriptedLW{}, &v1.Pod{}, NewStore(MetaNamespaceKeyFunc), 0)
	for _, err := range []error{
		apierrors.NewResourceExpired("too old"), io.EOF, io.ErrUnexpectedEOF,
		apierrors.NewNotFound(schema.GroupResource{Resource: "pods"}, "x"), errors.New("other"),
	} {
		DefaultWatchErrorHandler(context.Background(), r, err)
	}
}

func TestVeryShortWatchErrorMessage(t *testing.T) {
	err := &VeryShortWatchError{Name: "pods-reflector"}
	if got := err.Error(); got != "very short watch: pods-reflector: Unexpected watch close - watch lasted less than a second and no items received" {
		t.Errorf("Error() = %q", got)
	}
}
