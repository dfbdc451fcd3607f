package fake

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/managedfields"

	"github.com/kubeclient/client-go/internal/resourcefake"
	"github.com/kubeclient/client-go/testing"
)

// NewServerLikeDynamicClient returns a FakeDynamicClient that serves the
// kinds of scheme and of objects as NewSimpleDynamicClient does, but
// answers like a small API server: its tracker is
// testing.NewServerLikeFieldManagedObjectTracker's. Creates fill in uid,
// creationTimestamp, generation and a name from generateName; every write
// stores a new resourceVersion and an update carrying a stale one fails
// with a Conflict; lists and watches honour label and field selectors; a
// watch from a resourceVersion replays the changes made after it;
// finalizers delay deletion; dry-run writes are not stored; and
// server-side apply tracks field ownership per field manager, the status
// subresource apart from the rest.
//
// Objects are stored as unstructured, so field management deduces their
// structure from their content, as the API server does for a custom
// resource without a schema: maps merge key by key and lists are atomic
// (an apply that sets a list owns all of it). The seed objects are stored
// as given, with the metadata they carry. It panics where
// NewSimpleDynamicClient does. It is an addition to client-go.
func NewServerLikeDynamicClient(scheme *runtime.Scheme, objects ...runtime.Object) *FakeDynamicClient {
	// NewSimpleDynamicClient works out the kinds and list kinds to serve
	// and checks the objects; its tracker is then replaced.
	c := NewSimpleDynamicClient(scheme, objects...)
	tracker := testing.NewServerLikeFieldManagedObjectTracker(c.scheme, serializer.NewCodecFactory(c.scheme).UniversalDecoder(), managedfields.NewDeducedTypeConverter())
	for _, obj := range objects {
		u, err := toUnstructured(scheme, obj)
		if err == nil {
			err = tracker.Add(u)
		}
		if err != nil {
			panic(fmt.Sprintf("dynamic fake: cannot add %T to the tracker: %v", obj, err))
		}
	}
	c.tracker = tracker
	c.ReactionChain, c.WatchReactionChain = nil, nil
	c.AddReactor("*", "*", testing.ObjectReaction(tracker))
	c.AddWatchReactor("*", resourcefake.WatchTracker(tracker, c.unstructuredEvent))
	return c
}
