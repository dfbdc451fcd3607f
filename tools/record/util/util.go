package util

import (
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
)

// ValidateEventType reports whether eventtype is Normal or Warning.
func ValidateEventType(eventtype string) bool {
	return eventtype == v1.EventTypeNormal || eventtype == v1.EventTypeWarning
}

// IsKeyNotFoundError reports whether err is an API status error with code
// 404 Not Found.
func IsKeyNotFoundError(err error) bool {
	var statusErr *apierrors.StatusError
	if !errors.As(err, &statusErr) || statusErr == nil {
		return false
	}
	return statusErr.Status().Code == http.StatusNotFound
}

// GenerateEventName returns "<refName>.<unixNano in hex>", or a random UUID
// when that is not a valid DNS subdomain name (refName may be a name that is
// valid for its own kind but not for an Event).
func GenerateEventName(refName string, unixNano int64) string {
	name := fmt.Sprintf("%s.%x", refName, unixNano)
	if errs := apimachineryvalidation.NameIsDNSSubdomain(name, false); len(errs) > 0 {
		return newUUID()
	}
	return name
}

// newUUID returns a random (version 4) UUID in its canonical form.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
