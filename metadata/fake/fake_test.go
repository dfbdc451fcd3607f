package fake

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	clienttesting "github.com/kubeclient/client-go/testing"

	"github.com/kubeclient/client-go/internal/resourcefake"
)

var widgetsGVR = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}

func widget(ns, name string, labels map[string]string) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{
		TypeMeta:   metav1.TypeMeta{APIVersion: "example.com/v1", Kind: "Widget"},
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels},
	}
}

func newTestClient() *FakeMetadataClient {
	return NewSimpleMetadataClient(NewTestScheme(),
		widget("ns", "a", map[string]string{"app": "web"}),
		widget("ns", "b", map[string]string{"app": "db"}),
		widget("other", "c", map[string]string{"app": "web"}))
}

// newServerLikeTestClient is newTestClient backed by a tracker made by
// clienttesting.NewServerLikeObjectTracker, the way a test opts in to
// API-server semantics.
func newServerLikeTestClient() *FakeMetadataClient {
	c := NewSimpleMetadataClient(NewTestScheme())
	tr := clienttesting.NewServerLikeObjectTracker(c.scheme, serializer.NewCodecFactory(c.scheme).UniversalDeserializer())
	for _, obj := range []runtime.Object{
		widget("ns", "a", map[string]string{"app": "web"}),
		widget("ns", "b", map[string]string{"app": "db"}),
		widget("other", "c", map[string]string{"app": "web"}),
	} {
		if err := tr.Add(obj); err != nil {
			panic(err)
		}
	}
	c.tracker = tr
	c.ReactionChain, c.WatchReactionChain = nil, nil
	c.AddReactor("*", "*", clienttesting.ObjectReaction(tr))
	c.AddWatchReactor("*", resourcefake.WatchTracker(tr, partialEvent))
	return c
}

func TestGetAndList(t *testing.T) {
	c := newServerLikeTestClient()
	ctx := context.Background()
	got, err := c.Resource(widgetsGVR).Namespace("ns").Get(ctx, "a", metav1.GetOptions{})
	if err != nil || got.Name != "a" || got.Labels["app"] != "web" {
		t.Fatalf("get: %+v, %v", got, err)
	}
	if _, err := c.Resource(widgetsGVR).Namespace("ns").Get(ctx, "zzz", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("get missing: %v", err)
	}
	tests := []struct {
		namespace string
		opts      metav1.ListOptions
		want      string
	}{
		{"", metav1.ListOptions{}, "a,b,c"},
		{"ns", metav1.ListOptions{}, "a,b"},
		{"", metav1.ListOptions{LabelSelector: "app=web"}, "a,c"},
		{"", metav1.ListOptions{FieldSelector: "metadata.name=b"}, "b"},
	}
	for _, tc := range tests {
		list, err := c.Resource(widgetsGVR).Namespace(tc.namespace).List(ctx, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, item := range list.Items {
			names = append(names, item.Name)
		}
		if strings.Join(names, ",") != tc.want || list.ResourceVersion == "" {
			t.Errorf("list %q %+v: got %v (rv %q), want %s", tc.namespace, tc.opts, names, list.ResourceVersion, tc.want)
		}
	}
}

func TestFakeWritesAndWatchFromResourceVersion(t *testing.T) {
	c := newServerLikeTestClient()
	ctx := context.Background()
	widgets := c.Resource(widgetsGVR).Namespace("ns")
	writer := widgets.(MetadataClient)

	list, err := widgets.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	created, err := writer.CreateFake(widget("ns", "new", nil), metav1.CreateOptions{})
	if err != nil || created.ResourceVersion == "" {
		t.Fatalf("CreateFake: %+v, %v", created, err)
	}
	created.Labels = map[string]string{"updated": "yes"}
	updated, err := writer.UpdateFake(created, metav1.UpdateOptions{})
	if err != nil || updated.ResourceVersion == created.ResourceVersion {
		t.Fatalf("UpdateFake: %+v, %v", updated, err)
	}
	if _, err := writer.UpdateFake(created, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("UpdateFake with a stale resourceVersion: %v", err)
	}

	w, err := widgets.Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	patched, err := widgets.Patch(ctx, "new", types.MergePatchType, []byte(`{"metadata":{"labels":{"patched":"yes"}}}`), metav1.PatchOptions{})
	if err != nil || patched.Labels["patched"] != "yes" {
		t.Fatalf("patch: %+v, %v", patched, err)
	}
	if err := widgets.Delete(ctx, "new", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}

	want := []struct {
		typ   watch.EventType
		label string
	}{{watch.Added, ""}, {watch.Modified, "updated"}, {watch.Modified, "patched"}, {watch.Deleted, "patched"}}
	for i, exp := range want {
		select {
		case ev := <-w.ResultChan():
			m, ok := ev.Object.(*metav1.PartialObjectMetadata)
			if !ok || ev.Type != exp.typ || m.Name != "new" || (exp.label != "" && m.Labels[exp.label] != "yes") {
				t.Fatalf("event %d: %s %#v, want %s with label %q", i, ev.Type, ev.Object, exp.typ, exp.label)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("event %d (%s) never came", i, exp.typ)
		}
	}

	if err := c.Resource(widgetsGVR).Namespace("ns").DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	left, err := c.Resource(widgetsGVR).List(ctx, metav1.ListOptions{})
	if err != nil || len(left.Items) != 1 || left.Items[0].Name != "c" {
		t.Errorf("after delete-collection: %+v, %v", left, err)
	}
}

func TestReactorsAndActions(t *testing.T) {
	c := newTestClient()
	boom := errors.New("boom")
	c.PrependReactor("delete", "widgets", func(action clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, boom
	})
	if err := c.Resource(widgetsGVR).Namespace("ns").Delete(context.Background(), "a", metav1.DeleteOptions{}); !errors.Is(err, boom) {
		t.Errorf("reactor error: %v", err)
	}
	actions := c.Actions()
	if len(actions) != 1 || actions[0].GetVerb() != "delete" || actions[0].GetNamespace() != "ns" || actions[0].GetResource() != widgetsGVR {
		t.Errorf("actions %+v", actions)
	}
	if c.Tracker() == nil || !c.IsWatchListSemanticsUnSupported() {
		t.Error("Tracker or IsWatchListSemanticsUnSupported")
	}
	if NewTestScheme() == NewTestScheme() {
		t.Error("NewTestScheme must return a new scheme each time")
	}
}
