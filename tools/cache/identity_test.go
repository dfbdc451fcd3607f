package cache

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestInformerNames(t *testing.T) {
	ResetInformerNamesForTesting()
	defer ResetInformerNamesForTesting()
	n, err := NewInformerName("controller-a")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewInformerName("controller-a"); err == nil {
		t.Error("duplicate name accepted")
	}
	gvr := schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	first, second := n.WithResource(gvr), n.WithResource(gvr)
	if !first.Reserved() || second.Reserved() {
		t.Errorf("Reserved: first=%v second=%v", first.Reserved(), second.Reserved())
	}
	if first.Name() != "controller-a" || first.GroupVersionResource() != gvr {
		t.Errorf("identity = %q %v", first.Name(), first.GroupVersionResource())
	}
	n.Release()
	if first.Reserved() {
		t.Error("still reserved after Release")
	}
	if _, err := NewInformerName("controller-a"); err != nil {
		t.Errorf("released name not reusable: %v", err)
	}
	var zero InformerNameAndResource
	if zero.Reserved() || zero.Name() != "" {
		t.Error("zero identity must be unreserved and unnamed")
	}
}
