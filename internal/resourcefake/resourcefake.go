// Package resourcefake holds what the fake dynamic and metadata clients
// share: the default watch reactor over their object tracker. It sits above
// the testing package.
package resourcefake

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/testing"
)

// WatchTracker returns a watch reactor that opens a watch on tracker with
// the action's list options and passes each event through convert, which
// turns the tracker's objects into the client's type (see watch.Filter).
func WatchTracker(tracker testing.ObjectTracker, convert watch.FilterFunc) testing.WatchReactionFunc {
	return func(action testing.Action) (bool, watch.Interface, error) {
		var opts metav1.ListOptions
		if watchAction, ok := action.(testing.WatchActionImpl); ok {
			opts = watchAction.ListOptions
		}
		w, err := tracker.Watch(action.GetResource(), action.GetNamespace(), opts)
		if err != nil {
			return false, nil, err
		}
		return true, watch.Filter(w, convert), nil
	}
}
