package openapitest

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/openapi"
)

// fileSuffix ends every document file name; the part before it is the API
// path with "/" written as "__" (for example apis__apps__v1_openapi.json).
const fileSuffix = "_openapi.json"

//go:embed testdata/*_openapi.json
var embeddedDocs embed.FS

// NewFileClient returns an openapi.Client serving the OpenAPI v3 documents in
// directory path, laid out as in api/openapi-spec/v3 of the Kubernetes
// repository.
func NewFileClient(path string) openapi.Client {
	return &fileClient{files: os.DirFS(path)}
}

// NewEmbeddedFileClient returns an openapi.Client serving the documents
// embedded in this package: api/v1, apis/apps/v1, apis/batch/v1,
// apis/discovery.k8s.io/v1 and apis/networking.k8s.io/v1alpha1, as a real
// kube-apiserver serves them (hack/update-openapi-testdata.sh writes them).
func NewEmbeddedFileClient() openapi.Client {
	docs, err := fs.Sub(embeddedDocs, "testdata")
	if err != nil {
		// The embed pattern above guarantees the directory exists.
		panic(fmt.Sprintf("openapitest: embedded testdata missing: %v", err))
	}
	return &fileClient{files: docs}
}

// fileClient lists the documents of a directory.
type fileClient struct {
	files fs.FS
}

var _ openapi.Client = (*fileClient)(nil)

// Paths implements openapi.Client. Files not named like a document are
// ignored.
func (c *fileClient) Paths() (map[string]openapi.GroupVersion, error) {
	entries, err := fs.ReadDir(c.files, ".")
	if err != nil {
		return nil, err
	}
	paths := map[string]openapi.GroupVersion{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, fileSuffix) {
			continue
		}
		apiPath := strings.ReplaceAll(strings.TrimSuffix(name, fileSuffix), "__", "/")
		paths[apiPath] = &fileGroupVersion{files: c.files, name: name}
	}
	return paths, nil
}

// fileGroupVersion serves one document file.
type fileGroupVersion struct {
	files fs.FS
	name  string
}

var _ openapi.GroupVersion = (*fileGroupVersion)(nil)

// Schema implements openapi.GroupVersion; only JSON is available.
func (g *fileGroupVersion) Schema(contentType string) ([]byte, error) {
	if contentType != runtime.ContentTypeJSON {
		return nil, fmt.Errorf("openapitest file client only serves %s, not %q", runtime.ContentTypeJSON, contentType)
	}
	return fs.ReadFile(g.files, g.name)
}

// ServerRelativeURL returns the document's file name.
func (g *fileGroupVersion) ServerRelativeURL() string {
	return g.name
}
