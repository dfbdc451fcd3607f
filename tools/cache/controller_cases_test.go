package cache

import (
	"context"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"

	fcache "github.com/kubeclient/client-go/tools/cache/testing"
)

func TestNewInformerDeliversEvents(t *testing.T) {
	source := fcache.NewFakeControllerSource()
	source.Add(pod("ns", "a", "", nil))
	log := &eventLog{}
	store, ctrl := NewTransformingIndexerInformer(source, &v1.Pod{}, 0, log, Indexers{NamespaceIndex: MetaNamespaceIndexFunc}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go ctrl.RunWithContext(ctx)
	waitUntil(t, "sync", ctrl.HasSynced)
	source.Modify(pod("ns", "a", "", map[string]string{"x": "y"}))
	source.Delete(pod("ns", "a", "", nil))
	waitUntil(t, "events", func() bool { return len(log.snapshot()) == 3 })
	if got := strings.Join(log.snapshot(), ";"); got != "add a initial=true;update a;delete a" {
		t.Errorf("events = %s", got)
	}
	if len(store.List()) != 0 {
		t.Error("store not empty after delete")
	}
}
