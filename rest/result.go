package rest

import (
	"fmt"
	"net/http"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/net"
	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/internal/responsebody"
)

// Result is the outcome of Request.Do: the response body with what is
// needed to decode it, or an error.
type Result struct {
	err        error
	statusCode int
	warnings   []net.WarningHeader

	// The body and how to decode it. reusable is the pooled buffer the
	// body was read into, for a request marked decode-once; Into returns
	// it (see internal/responsebody).
	body        []byte
	reusable    *responsebody.Buffer
	contentType string
	decoder     runtime.Decoder

	logger klog.Logger
}

// Raw returns the response body and the error.
func (r Result) Raw() ([]byte, error) {
	return r.body, r.err
}

// Get decodes the body into a new object. A Status body that is not a
// success is returned as an error.
func (r Result) Get() (runtime.Object, error) {
	return r.decode(nil)
}

// decode decodes the body, into obj when it is set. A Status that is not a
// success becomes the error, unless it was decoded into obj itself.
func (r Result) decode(obj runtime.Object) (runtime.Object, error) {
	switch {
	case r.err != nil:
		return nil, r.Error()
	case r.decoder == nil:
		return nil, fmt.Errorf("serializer for %s doesn't exist", r.contentType)
	}
	out, _, err := r.decoder.Decode(r.body, nil, obj)
	if err != nil {
		return nil, err
	}
	if status, isStatus := out.(*metav1.Status); isStatus && out != obj && status.Status != metav1.StatusSuccess {
		return nil, apierrors.FromObject(status)
	}
	return out, nil
}

// StatusCode stores the HTTP status code in *statusCode.
func (r Result) StatusCode(statusCode *int) Result {
	*statusCode = r.statusCode
	return r
}

// ContentType stores the response's Content-Type in *contentType.
func (r Result) ContentType(contentType *string) Result {
	*contentType = r.contentType
	return r
}

// Into decodes the body into obj. When the body decodes to a Status that is
// not a success, that Status is returned as an error instead.
func (r Result) Into(obj runtime.Object) error {
	if r.err == nil && r.decoder != nil && len(r.body) == 0 {
		return fmt.Errorf("0-length response with status code: %d and content type: %s", r.statusCode, r.contentType)
	}
	_, err := r.decode(obj)
	r.reusable.Decoded(r.decoder, obj)
	return err
}

// WasCreated stores in *wasCreated whether the server answered 201 Created.
func (r Result) WasCreated(wasCreated *bool) Result {
	*wasCreated = r.statusCode == http.StatusCreated
	return r
}

// Error returns the error of the request. For a failed response whose body
// is a metav1.Status with status Failure, the error is built from that
// Status, so its reason, message and details reach the caller.
func (r Result) Error() error {
	if status := r.failureStatus(); status != nil {
		return apierrors.FromObject(status)
	}
	return r.err
}

// failureStatus returns the metav1.Status with status Failure that the body
// of an unexpected server error holds, or nil.
func (r Result) failureStatus() *metav1.Status {
	if r.err == nil || len(r.body) == 0 || r.decoder == nil || !apierrors.IsUnexpectedServerError(r.err) {
		return nil
	}
	// Old servers send a Status without a version: v1 is assumed.
	out, _, err := r.decoder.Decode(r.body, &schema.GroupVersionKind{Version: "v1"}, nil)
	if err != nil {
		r.logger.V(5).Info("Body was not decodable (unable to check for Status)", "err", err)
		return nil
	}
	if status, isStatus := out.(*metav1.Status); isStatus && status.Status == metav1.StatusFailure {
		return status
	}
	return nil
}

// Warnings returns the Warning headers of the response.
func (r Result) Warnings() []net.WarningHeader {
	return r.warnings
}
