package openapi3

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kube-openapi/pkg/spec3"

	"github.com/kubeclient/client-go/openapi"
)

// Root answers questions about the OpenAPI v3 root document, which maps
// every group-version's API path (for example "apis/apps/v1") to the URL of
// its specification:
//
//	"apis/apps/v1": {
//	    "serverRelativeURL": "/openapi/v3/apis/apps/v1?hash=<HASH>"
//	}
type Root interface {
	// GroupVersions lists, sorted, every group-version that has a
	// specification. It fails if the root document cannot be fetched or
	// parsed.
	GroupVersions() ([]schema.GroupVersion, error)
	// GVSpec returns the parsed specification of gv.
	GVSpec(gv schema.GroupVersion) (*spec3.OpenAPI, error)
	// GVSpecAsMap returns the specification of gv decoded into generic JSON
	// values.
	GVSpecAsMap(gv schema.GroupVersion) (map[string]interface{}, error)
}

// root implements Root on top of an openapi.Client.
type root struct {
	client openapi.Client
}

var _ Root = (*root)(nil)

// NewRoot returns a Root that reads its documents through client.
func NewRoot(client openapi.Client) Root {
	return &root{client: client}
}

// GroupVersions implements Root. Listed paths that are not API paths (such
// as "version" or "apis") are skipped.
func (r *root) GroupVersions() ([]schema.GroupVersion, error) {
	paths, err := r.client.Paths()
	if err != nil {
		return nil, err
	}
	gvs := make([]schema.GroupVersion, 0, len(paths))
	for path := range paths {
		if gv, ok := groupVersionOfPath(path); ok {
			gvs = append(gvs, gv)
		}
	}
	sort.Slice(gvs, func(i, j int) bool { return gvs[i].String() < gvs[j].String() })
	return gvs, nil
}

// GVSpec implements Root.
func (r *root) GVSpec(gv schema.GroupVersion) (*spec3.OpenAPI, error) {
	body, err := r.specBytes(gv)
	if err != nil {
		return nil, err
	}
	var doc spec3.OpenAPI
	if err := json.Unmarshal(body, &doc); err != nil {
		return &doc, fmt.Errorf("parsing OpenAPI v3 document of %v: %w", gv, err)
	}
	return &doc, nil
}

// GVSpecAsMap implements Root.
func (r *root) GVSpecAsMap(gv schema.GroupVersion) (map[string]interface{}, error) {
	body, err := r.specBytes(gv)
	if err != nil {
		return nil, err
	}
	var doc map[string]interface{}
	if err := json.Unmarshal(body, &doc); err != nil {
		return doc, fmt.Errorf("parsing OpenAPI v3 document of %v: %w", gv, err)
	}
	return doc, nil
}

// specBytes downloads the JSON specification of gv.
func (r *root) specBytes(gv schema.GroupVersion) ([]byte, error) {
	paths, err := r.client.Paths()
	if err != nil {
		return nil, err
	}
	doc, ok := paths[apiPathOf(gv)]
	if !ok {
		return nil, &GroupVersionNotFoundError{gv: gv}
	}
	return doc.Schema(runtime.ContentTypeJSON)
}

// apiPathOf returns the root document key of gv: "api/v1" for the core
// group, "apis/<group>/<version>" otherwise.
func apiPathOf(gv schema.GroupVersion) string {
	if gv.Group == "" {
		return "api/" + gv.Version
	}
	return "apis/" + gv.Group + "/" + gv.Version
}

// groupVersionOfPath inverts apiPathOf; ok is false for any other key.
func groupVersionOfPath(path string) (gv schema.GroupVersion, ok bool) {
	parts := strings.Split(path, "/")
	switch {
	case len(parts) >= 2 && parts[0] == "api":
		return schema.GroupVersion{Version: parts[1]}, true
	case len(parts) >= 3 && parts[0] == "apis":
		return schema.GroupVersion{Group: parts[1], Version: parts[2]}, true
	default:
		return schema.GroupVersion{}, false
	}
}

// GroupVersionNotFoundError reports that the root document lists no
// specification for a group-version.
type GroupVersionNotFoundError struct {
	gv schema.GroupVersion
}

// Error implements error.
func (e *GroupVersionNotFoundError) Error() string {
	return fmt.Sprintf("GroupVersion (%v) not found as OpenAPI V3 path", e.gv)
}
