package cache

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"
)

// TestWatchStreamAppliesEvents feeds a watch stream's events to applyNext
// until it reports the end of the stream, inside a synctest bubble whose
// clock decides whether the stream was very short.
func TestWatchStreamAppliesEvents(t *testing.T) {
	widget := func(kind, name, rv string) *unstructured.Unstructured {
		u := &unstructured.Unstructured{}
		u.SetAPIVersion("example.com/v1")
		u.SetKind(kind)
		u.SetNamespace("ns")
		u.SetName(name)
		u.SetResourceVersion(rv)
		return u
	}
	tests := []struct {
		name         string
		expectedType interface{} // nil: a *v1.Pod
		events       []watch.Event
		openFor      time.Duration // how long the stream stays open after its events
		// want lists what each applyNext applied: "<type>@<rv>", with
		// " end" for the bookmark that ends the initial events.
		want      []string
		wantStore string // the store's keys at the end
		wantMarks string // the bookmarks the store heard of
		wantErr   func(error) bool
	}{
		{
			name: "adds, updates and deletes reach the store",
			events: []watch.Event{
				{Type: watch.Added, Object: pod("ns", "a", "2", nil)},
				{Type: watch.Added, Object: pod("ns", "b", "3", nil)},
				{Type: watch.Modified, Object: pod("ns", "a", "4", nil)},
				{Type: watch.Deleted, Object: pod("ns", "b", "5", nil)},
			},
			want:      []string{"ADDED@2", "ADDED@3", "MODIFIED@4", "DELETED@5"},
			wantStore: "[ns/a]",
			wantErr:   isErr(errStreamEnded),
		},
		{
			name: "bookmarks reach a bookmark store, the initial-events end is marked",
			events: []watch.Event{
				{Type: watch.Bookmark, Object: pod("", "", "7", nil)},
				{Type: watch.Bookmark, Object: initialEventsEnd("8")},
			},
			want:      []string{"BOOKMARK@7", "BOOKMARK@8 end"},
			wantStore: "[]",
			wantMarks: "[7 8]",
			wantErr:   isErr(errStreamEnded),
		},
		{
			name: "objects of another type are skipped",
			events: []watch.Event{
				{Type: watch.Added, Object: &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n", ResourceVersion: "2"}}},
				{Type: watch.Added, Object: pod("ns", "a", "3", nil)},
			},
			want:      []string{"ADDED@3"},
			wantStore: "[ns/a]",
			wantErr:   isErr(errStreamEnded),
		},
		{
			name:         "unstructured objects of another kind are skipped",
			expectedType: widget("Widget", "", ""),
			events: []watch.Event{
				{Type: watch.Added, Object: widget("Gadget", "g", "2")},
				{Type: watch.Added, Object: widget("Widget", "w", "3")},
			},
			want:      []string{"ADDED@3"},
			wantStore: "[ns/w]",
			wantErr:   isErr(errStreamEnded),
		},
		{
			name: "a store error is reported and the event counts as applied",
			events: []watch.Event{
				{Type: watch.Added, Object: pod("ns", "bad", "2", nil)},
				{Type: watch.Added, Object: pod("ns", "a", "3", nil)},
			},
			want:      []string{"ADDED@2", "ADDED@3"},
			wantStore: "[ns/a]",
			wantErr:   isErr(errStreamEnded),
		},
		{
			name:      "an event of an unknown type is applied as nothing",
			events:    []watch.Event{{Type: "SHUFFLED", Object: pod("ns", "a", "2", nil)}},
			want:      []string{"SHUFFLED@2"},
			wantStore: "[]",
			wantErr:   isErr(errStreamEnded),
		},
		{
			name:    "an error event ends the stream with its API error",
			events:  []watch.Event{{Type: watch.Added, Object: pod("ns", "a", "2", nil)}, errorEvent(apierrors.NewResourceExpired("too old"))},
			want:    []string{"ADDED@2"},
			wantErr: apierrors.IsResourceExpired, wantStore: "[ns/a]",
		},
		{
			name:      "a stream closed at once without events is very short",
			wantStore: "[]",
			wantErr:   func(err error) bool { var short *VeryShortWatchError; return errors.As(err, &short) },
		},
		{
			name:      "a stream open for a second without events just ended",
			openFor:   shortWatchThreshold,
			wantStore: "[]",
			wantErr:   isErr(errStreamEnded),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, inBubble(func(t *testing.T) {
			expected := tc.expectedType
			if expected == nil {
				expected = &v1.Pod{}
			}
			store := &bookmarkRecorder{Store: NewStore(MetaNamespaceKeyFunc)}
			r := NewReflectorWithOptions(&scriptedLW{}, expected, store, ReflectorOptions{})
			w := watch.NewFakeWithChanSize(len(tc.events), false)
			for _, e := range tc.events {
				w.Action(e.Type, e.Object)
			}
			s := r.newWatchStream(w, store, time.Now(), nil)
			time.Sleep(tc.openFor)
			w.Stop()
			var got []string
			var err error
			for {
				var applied appliedEvent
				if applied, err = s.applyNext(context.Background()); err != nil {
					break
				}
				d := fmt.Sprintf("%s@%s", applied.eventType, applied.resourceVersion)
				if applied.initialEventsEnd {
					d += " end"
				}
				got = append(got, d)
			}
			if strings.Join(got, ", ") != strings.Join(tc.want, ", ") {
				t.Errorf("applied %q, want %q", got, tc.want)
			}
			if !tc.wantErr(err) {
				t.Errorf("the stream ended with %v", err)
			}
			if keys := fmt.Sprint(sorted(store.ListKeys())); keys != tc.wantStore {
				t.Errorf("store keys %s, want %s", keys, tc.wantStore)
			}
			if marks := fmt.Sprint(store.bookmarks); tc.wantMarks != "" && marks != tc.wantMarks {
				t.Errorf("bookmarks %s, want %s", marks, tc.wantMarks)
			}
		}))
	}
}

// TestWatchStreamEndsOnRequest: applyNext returns at once, with nothing
// applied, when its context ends or the stream is interrupted.
func TestWatchStreamEndsOnRequest(t *testing.T) {
	cut := errors.New("cut by the caller")
	tests := []struct {
		name    string
		end     func(cancel context.CancelFunc, interrupt chan<- error)
		wantErr error
	}{
		{name: "the context ends", end: func(cancel context.CancelFunc, _ chan<- error) { cancel() }, wantErr: errStopRequested},
		{name: "an interrupt", end: func(_ context.CancelFunc, interrupt chan<- error) { interrupt <- cut }, wantErr: cut},
	}
	for _, tc := range tests {
		t.Run(tc.name, inBubble(func(t *testing.T) {
			store := NewStore(MetaNamespaceKeyFunc)
			r := NewReflectorWithOptions(&scriptedLW{}, &v1.Pod{}, store, ReflectorOptions{})
			w := watch.NewFake()
			interrupt := make(chan error, 1)
			s := r.newWatchStream(w, store, time.Now(), interrupt)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			returned := make(chan error, 1)
			go func() {
				_, err := s.applyNext(ctx)
				returned <- err
			}()
			synctest.Wait()
			tc.end(cancel, interrupt)
			if err := <-returned; !errors.Is(err, tc.wantErr) {
				t.Errorf("applyNext = %v, want %v", err, tc.wantErr)
			}
			s.stop()
		}))
	}
}

// isErr returns a check that an error is target.
func isErr(target error) func(error) bool {
	return func(err error) bool { return errors.Is(err, target) }
}
