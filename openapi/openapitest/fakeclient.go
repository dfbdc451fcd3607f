package openapitest

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/openapi"
)

// FakeClient is an openapi.Client whose answers are set by the test.
type FakeClient struct {
	// PathsMap is what Paths returns.
	PathsMap map[string]openapi.GroupVersion
	// ForcedErr, when set, is returned by Paths instead of PathsMap.
	ForcedErr error
}

var _ openapi.Client = &FakeClient{}

// NewFakeClient returns a FakeClient with an empty, non-nil PathsMap.
func NewFakeClient() *FakeClient {
	return &FakeClient{PathsMap: map[string]openapi.GroupVersion{}}
}

// Paths returns ForcedErr if set, and otherwise PathsMap (an empty map when
// PathsMap is nil).
func (f FakeClient) Paths() (map[string]openapi.GroupVersion, error) {
	if f.ForcedErr != nil {
		return nil, f.ForcedErr
	}
	if f.PathsMap == nil {
		return map[string]openapi.GroupVersion{}, nil
	}
	return f.PathsMap, nil
}

// FakeGroupVersion is an openapi.GroupVersion whose document is set by the
// test. It only serves "application/json".
type FakeGroupVersion struct {
	// GVSpec is the document Schema returns.
	GVSpec []byte
	// ForcedErr, when set, is returned by Schema instead of GVSpec.
	ForcedErr error
}

var _ openapi.GroupVersion = &FakeGroupVersion{}

// Schema returns GVSpec (an empty slice when unset), or ForcedErr if set. Any
// content type other than application/json is an error.
func (f FakeGroupVersion) Schema(contentType string) ([]byte, error) {
	if contentType != runtime.ContentTypeJSON {
		return nil, fmt.Errorf("FakeGroupVersion only serves %s, not %q", runtime.ContentTypeJSON, contentType)
	}
	if f.ForcedErr != nil {
		return nil, f.ForcedErr
	}
	if f.GVSpec == nil {
		return []byte{}, nil
	}
	return f.GVSpec, nil
}

// ServerRelativeURL returns the empty string: a fake document has no URL.
func (f FakeGroupVersion) ServerRelativeURL() string {
	return ""
}
