package compat

import (
	"bytes"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/dynamic/dynamiclister"
	"github.com/kubeclient/client-go/tools/cache"
	"github.com/kubeclient/client-go/util/jsonpath"
)

// README: "dynamiclister and metadatalister return an InternalError
// instead of panicking when the cache holds an object of another type;
// util/jsonpath returns no results where client-go's panics on a nil
// root".

// TestDynamicListerObjects: a program reads a dynamic informer's cache
// through a lister. Unstructured objects come back as on client-go; an
// object of another type put there by mistake is an InternalError where
// client-go panics.
func TestDynamicListerObjects(t *testing.T) {
	gvr := schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("v1")
	u.SetKind("Pod")
	u.SetNamespace("ns")
	u.SetName("a")
	if err := indexer.Add(u); err != nil {
		t.Fatal(err)
	}
	if err := indexer.Add(testPod("typed", "1")); err != nil {
		t.Fatal(err)
	}
	lister := dynamiclister.New(indexer, gvr)
	got, err := lister.Namespace("ns").Get("a")
	if err != nil || got.GetName() != "a" {
		t.Errorf("Get a: %v, %v", got, err)
	}
	if _, err := lister.Namespace("ns").Get("typed"); !apierrors.IsInternalError(err) {
		t.Errorf("Get of a typed object: %v, want an InternalError", err)
	}
}

// TestJSONPathOnNilRoot: a template applied to nothing gives no output.
func TestJSONPathOnNilRoot(t *testing.T) {
	jp := jsonpath.New("t")
	if err := jp.Parse("{[0]}"); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := jp.Execute(&out, nil)
	if out.Len() != 0 {
		t.Errorf("output %q, err %v; want nothing", out.String(), err)
	}
}
