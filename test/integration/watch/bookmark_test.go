package watch

import (
	"context"
	"reflect"
	"strconv"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"

	"github.com/kubeclient/client-go/test/integration/framework"
)

// checkBookmark fails t unless ev is a BOOKMARK whose ConfigMap carries
// nothing but a resourceVersion and the given annotations, and returns that
// resourceVersion.
func checkBookmark(t testing.TB, ev watch.Event, annotations map[string]string) int64 {
	t.Helper()
	if ev.Type != watch.Bookmark {
		t.Fatalf("got %s %#v, want a BOOKMARK", ev.Type, ev.Object)
	}
	cm, ok := ev.Object.(*corev1.ConfigMap)
	if !ok {
		t.Fatalf("BOOKMARK carries %T, want *v1.ConfigMap", ev.Object)
	}
	bare := cm.DeepCopy()
	bare.TypeMeta = metav1.TypeMeta{}
	want := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{ResourceVersion: cm.ResourceVersion, Annotations: annotations}}
	if !reflect.DeepEqual(bare, want) {
		t.Errorf("BOOKMARK object %#v, want only resourceVersion and annotations %v", bare, annotations)
	}
	return rv(t, cm.ResourceVersion)
}

// TestWatchBookmarks opens a namespaced watch with AllowWatchBookmarks and
// timeoutSeconds=5: it replays the writes after the list; then a write in
// another namespace advances the watch cache without an event for this
// watcher, and two seconds before the deadline the cache sends a BOOKMARK
// whose object has only a resourceVersion, not older than that write. (The
// cache sends no bookmark while its resourceVersion equals the last event
// the watcher got.)
// A watch resumed from the bookmark's resourceVersion then sees exactly the
// writes made after the bookmark, including one made while the first watch
// was still open.
func TestWatchBookmarks(t *testing.T) {
	for _, contentType := range framework.ContentTypes {
		t.Run(contentType, func(t *testing.T) {
			framework.DumpLogsOnFailure(t, controlPlane)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var wire framework.WireLog
			cs := newClientset(t, contentType, &wire)
			cms := cs.CoreV1().ConfigMaps(controlPlane.Namespace(t))
			otherNamespace := cs.CoreV1().ConfigMaps(controlPlane.Namespace(t))
			create := func(name, v string) *corev1.ConfigMap {
				t.Helper()
				cm, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: map[string]string{"v": v}}, metav1.CreateOptions{})
				if err != nil {
					t.Fatalf("create %s: %v", name, err)
				}
				return cm
			}
			update := func(cm *corev1.ConfigMap, v string) *corev1.ConfigMap {
				t.Helper()
				cm = cm.DeepCopy()
				cm.Data["v"] = v
				cm, err := cms.Update(ctx, cm, metav1.UpdateOptions{})
				if err != nil {
					t.Fatalf("update %s: %v", cm.Name, err)
				}
				return cm
			}

			create("a", "1")
			create("b", "1")
			list, err := cms.List(ctx, metav1.ListOptions{})
			if err != nil {
				t.Fatalf("List: %v", err)
			}
			c := create("c", "1")
			c2 := update(c, "2")

			w, err := cms.Watch(ctx, metav1.ListOptions{
				ResourceVersion:     list.ResourceVersion,
				AllowWatchBookmarks: true,
				TimeoutSeconds:      ptr.To[int64](5),
			})
			if err != nil {
				t.Fatalf("Watch: %v", err)
			}
			defer w.Stop()
			for i, want := range []change{
				{watch.Added, "c", "1", rv(t, c.ResourceVersion)},
				{watch.Modified, "c", "2", rv(t, c2.ResourceVersion)},
			} {
				ev, ok := next(ctx, t, w, 10*time.Second)
				if !ok {
					t.Fatalf("watch closed before event %d", i)
				}
				if got := changeOf(t, ev); got != want {
					t.Errorf("event %d: %v, want %v", i, got, want)
				}
			}
			// A ConfigMap written elsewhere moves the watch cache past the
			// last event this watcher got, without an event for it: that
			// progress is what the bookmark reports.
			elsewhere, err := otherNamespace.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{GenerateName: "progress-"}}, metav1.CreateOptions{})
			if err != nil {
				t.Fatalf("create in another namespace: %v", err)
			}
			ev, ok := next(ctx, t, w, 10*time.Second)
			if !ok {
				t.Fatal("watch closed without a bookmark")
			}
			bookmarkRV := checkBookmark(t, ev, nil)
			if bookmarkRV < rv(t, c2.ResourceVersion) || bookmarkRV < rv(t, elsewhere.ResourceVersion) {
				t.Errorf("bookmark at %d is older than the last event (%s) or the write elsewhere (%s)", bookmarkRV, c2.ResourceVersion, elsewhere.ResourceVersion)
			}

			// x is written while the first watch is still open (about two
			// seconds before its deadline); it may or may not reach it.
			x := create("x", "1")
			for _, ev := range waitClosed(t, w, 10*time.Second) {
				switch ev.Type {
				case watch.Bookmark:
					checkBookmark(t, ev, nil)
				case watch.Added:
					if got, want := changeOf(t, ev), (change{watch.Added, "x", "1", rv(t, x.ResourceVersion)}); got != want {
						t.Errorf("after the bookmark: %v, want %v", got, want)
					}
				default:
					t.Errorf("after the bookmark: unexpected %s %#v", ev.Type, ev.Object)
				}
			}
			x2 := update(x, "2")
			if err := cms.Delete(ctx, "a", metav1.DeleteOptions{}); err != nil {
				t.Fatalf("delete a: %v", err)
			}

			resumed, err := cms.Watch(ctx, metav1.ListOptions{ResourceVersion: strconv.FormatInt(bookmarkRV, 10)})
			if err != nil {
				t.Fatalf("Watch from the bookmark: %v", err)
			}
			defer resumed.Stop()
			sentinel := create("sentinel", "")
			for i, want := range []change{
				{watch.Added, "x", "1", rv(t, x.ResourceVersion)},
				{watch.Modified, "x", "2", rv(t, x2.ResourceVersion)},
				{watch.Deleted, "a", "1", 0},
				{watch.Added, "sentinel", "", rv(t, sentinel.ResourceVersion)},
			} {
				ev, ok := next(ctx, t, resumed, 10*time.Second)
				if !ok {
					t.Fatalf("resumed watch closed before event %d", i)
				}
				got := changeOf(t, ev)
				if want.rv == 0 { // a delete: between the writes around it
					if got.rv <= rv(t, x2.ResourceVersion) || got.rv >= rv(t, sentinel.ResourceVersion) {
						t.Errorf("event %d: delete at %d, want between %s and %s", i, got.rv, x2.ResourceVersion, sentinel.ResourceVersion)
					}
					want.rv = got.rv
				}
				if got != want {
					t.Errorf("resumed watch, event %d: %v, want %v", i, got, want)
				}
			}
			wire.Check(t, contentType)
		})
	}
}
