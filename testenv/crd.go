package testenv

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/yaml"

	"github.com/kubeclient/client-go/dynamic"
)

var crdResource = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// documentSeparator splits a multi-document YAML stream.
var documentSeparator = regexp.MustCompile(`(?m)^---\s*$`)

// InstallCRDFiles reads CustomResourceDefinitions from YAML or JSON files
// (several YAML documents per file allowed; a folder means every .yaml,
// .yml and .json file in it) and installs them as InstallCRDs does.
func (env *Env) InstallCRDFiles(ctx context.Context, paths ...string) ([]*unstructured.Unstructured, error) {
	var crds []any
	for _, path := range paths {
		files, err := crdFiles(path)
		if err != nil {
			return nil, err
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				return nil, err
			}
			for i, doc := range documentSeparator.Split(string(data), -1) {
				if strings.TrimSpace(doc) == "" {
					continue
				}
				obj := map[string]any{}
				if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
					return nil, fmt.Errorf("testenv: %s document %d: %w", file, i+1, err)
				}
				if len(obj) == 0 {
					continue // only comments
				}
				crds = append(crds, &unstructured.Unstructured{Object: obj})
			}
		}
	}
	return env.InstallCRDs(ctx, crds...)
}

// crdFiles expands a folder into its manifest files, sorted by name.
func crdFiles(path string) ([]string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{path}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		switch filepath.Ext(e.Name()) {
		case ".yaml", ".yml", ".json":
			if !e.IsDir() {
				files = append(files, filepath.Join(path, e.Name()))
			}
		}
	}
	return files, nil
}

// InstallCRDs creates or updates (by server-side apply, field manager
// "testenv") each CustomResourceDefinition and waits until every version it
// serves answers a List. A CRD is given as any Go value that encodes to a
// CustomResourceDefinition in JSON: an apiextensions.k8s.io/v1
// CustomResourceDefinition struct, an *unstructured.Unstructured, or a map;
// a missing apiVersion and kind are filled in. It returns the CRDs as
// stored.
func (env *Env) InstallCRDs(ctx context.Context, crds ...any) ([]*unstructured.Unstructured, error) {
	client, err := dynamic.NewForConfig(env.AdminConfig())
	if err != nil {
		return nil, err
	}
	var installed []*unstructured.Unstructured
	for _, crd := range crds {
		obj, err := toCRD(crd)
		if err != nil {
			return nil, err
		}
		applied, err := client.Resource(crdResource).Apply(ctx, obj.GetName(), obj,
			metav1.ApplyOptions{FieldManager: "testenv", Force: true})
		if err != nil {
			return nil, fmt.Errorf("testenv: installing CRD %s: %w", obj.GetName(), err)
		}
		installed = append(installed, applied)
	}
	for i, crd := range installed {
		served, err := waitCRDServed(ctx, client, crd)
		if err != nil {
			return nil, err
		}
		installed[i] = served
	}
	return installed, nil
}

// toCRD converts a Go value to an unstructured CustomResourceDefinition.
func toCRD(crd any) (*unstructured.Unstructured, error) {
	var obj map[string]any
	switch c := crd.(type) {
	case *unstructured.Unstructured:
		obj = c.DeepCopy().Object
	case map[string]any:
		obj = c
	default:
		data, err := json.Marshal(crd)
		if err != nil {
			return nil, fmt.Errorf("testenv: encoding CRD %T: %w", crd, err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if err := dec.Decode(&obj); err != nil {
			return nil, fmt.Errorf("testenv: CRD %T does not encode to a JSON object: %w", crd, err)
		}
	}
	u := &unstructured.Unstructured{Object: obj}
	if u.GetAPIVersion() == "" && u.GetKind() == "" {
		u.SetAPIVersion(crdResource.GroupVersion().String())
		u.SetKind("CustomResourceDefinition")
	}
	if u.GetKind() != "CustomResourceDefinition" || u.GetName() == "" {
		return nil, fmt.Errorf("testenv: not a named CustomResourceDefinition: apiVersion %q kind %q name %q",
			u.GetAPIVersion(), u.GetKind(), u.GetName())
	}
	// Server-side apply rejects managedFields and resourceVersion it did
	// not ask for; a CRD read back from a server carries them.
	unstructured.RemoveNestedField(u.Object, "metadata", "managedFields")
	unstructured.RemoveNestedField(u.Object, "metadata", "resourceVersion")
	unstructured.RemoveNestedField(u.Object, "status")
	return u, nil
}

// waitCRDServed polls until crd is Established and each served version
// answers a List, and returns the CRD as last read.
func waitCRDServed(ctx context.Context, client dynamic.Interface, crd *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	group, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
	plural, _, _ := unstructured.NestedString(crd.Object, "spec", "names", "plural")
	versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	var gvrs []schema.GroupVersionResource
	for _, v := range versions {
		version, _ := v.(map[string]any)
		if served, _ := version["served"].(bool); served {
			name, _ := version["name"].(string)
			gvrs = append(gvrs, schema.GroupVersionResource{Group: group, Version: name, Resource: plural})
		}
	}
	var last *unstructured.Unstructured
	var lastErr error
	err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		got, err := client.Resource(crdResource).Get(ctx, crd.GetName(), metav1.GetOptions{})
		if err != nil {
			lastErr = err
			return false, nil
		}
		last = got
		if !crdEstablished(got) {
			lastErr = fmt.Errorf("not Established yet")
			return false, nil
		}
		for _, gvr := range gvrs {
			if _, err := client.Resource(gvr).List(ctx, metav1.ListOptions{Limit: 1}); err != nil {
				if apierrors.IsNotFound(err) {
					lastErr = fmt.Errorf("%v not served yet", gvr)
					return false, nil
				}
				lastErr = err
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		return nil, fmt.Errorf("testenv: CRD %s not served: %v (last: %v)", crd.GetName(), err, lastErr)
	}
	return last, nil
}

// crdEstablished reports whether crd's Established condition is True.
func crdEstablished(crd *unstructured.Unstructured) bool {
	conditions, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
	for _, c := range conditions {
		cond, _ := c.(map[string]any)
		if cond["type"] == "Established" && cond["status"] == "True" {
			return true
		}
	}
	return false
}
