// Package resourceclient holds what the dynamic and metadata clients share:
// the URL path of a resource in a scope, with the checks client-go makes on
// namespaces and names, and the construction of a client from a
// rest.Config. It sits just above rest; dynamic and metadata build on it.
package resourceclient

import (
	"errors"
	"fmt"
	"net/http"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/rest"
)

// ErrNameRequired is returned by the verbs that address one object when
// they are given no name.
var ErrNameRequired = errors.New("name is required")

// Scope is one resource at cluster scope (Namespace empty) or in one
// namespace: what a resource client of dynamic or metadata addresses.
type Scope struct {
	Resource  schema.GroupVersionResource
	Namespace string
}

// Path returns the URL path segments of the object name in the scope (of
// the collection when name is empty) followed by subresources:
//
//	/api/v1/namespaces/ns/pods/name/status
//	/apis/example.com/v1/widgets
//
// A namespace or name that cannot be one path segment ("..", or anything
// holding "/" or "%") is an error.
func (s Scope) Path(name string, subresources ...string) ([]string, error) {
	if problems := rest.IsValidPathSegmentName(s.Namespace); len(problems) > 0 {
		return nil, fmt.Errorf("invalid namespace %q: %v", s.Namespace, problems)
	}
	if problems := rest.IsValidPathSegmentName(name); len(problems) > 0 {
		return nil, fmt.Errorf("invalid resource name %q: %v", name, problems)
	}
	segments := make([]string, 0, 7+len(subresources))
	if group := s.Resource.Group; group != "" {
		segments = append(segments, "apis", group)
	} else {
		segments = append(segments, "api")
	}
	segments = append(segments, s.Resource.Version)
	if s.Namespace != "" {
		segments = append(segments, "namespaces", s.Namespace)
	}
	segments = append(segments, s.Resource.Resource)
	if name != "" {
		segments = append(segments, name)
	}
	return append(segments, subresources...), nil
}

// ObjectPath is Path for the verbs that address one object: an empty name
// is ErrNameRequired.
func (s Scope) ObjectPath(name string, subresources ...string) ([]string, error) {
	if name == "" {
		return nil, ErrNameRequired
	}
	return s.Path(name, subresources...)
}

// NewForConfig builds a client with newForConfigAndClient, over an HTTP
// client made by rest.HTTPClientFor from config.
func NewForConfig[C any](config *rest.Config, newForConfigAndClient func(*rest.Config, *http.Client) (C, error)) (C, error) {
	httpClient, err := rest.HTTPClientFor(config)
	if err != nil {
		var zero C
		return zero, err
	}
	return newForConfigAndClient(config, httpClient)
}

// Must returns client, or panics with err: the OrDie constructors.
func Must[C any](client C, err error) C {
	if err != nil {
		panic(err)
	}
	return client
}
