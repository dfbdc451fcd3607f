package cache

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
	testingclock "k8s.io/utils/clock/testing"
)

func podWithUID(name, uid, rv string) *v1.Pod {
	p := pod("ns", name, rv, nil)
	p.UID = types.UID(uid)
	return p
}

// mutationStep is one call on a MutationCache in TestMutationCacheDeletion.
type mutationStep struct {
	mutate   *v1.Pod
	deleted  *v1.Pod
	informer *v1.Pod
}

func TestMutationCacheDeletion(t *testing.T) {
	tests := []struct {
		name string
		// backing is what the informer's store holds when GetByKey runs.
		backing *v1.Pod
		steps   []mutationStep
		wantRV  string // "" means GetByKey must report the object missing
	}{
		{
			name:   "delete of the same object drops the mutation",
			steps:  []mutationStep{{mutate: podWithUID("p", "u1", "3")}, {deleted: podWithUID("p", "u1", "2")}},
			wantRV: "",
		},
		{
			name:   "newer delete of another object drops the mutation",
			steps:  []mutationStep{{mutate: podWithUID("p", "u1", "3")}, {deleted: podWithUID("p", "u2", "4")}},
			wantRV: "",
		},
		{
			name:   "older delete of another object keeps the mutation",
			steps:  []mutationStep{{mutate: podWithUID("p", "u1", "3")}, {deleted: podWithUID("p", "u0", "1")}},
			wantRV: "3",
		},
		{
			name:   "late mutation of the deleted object is ignored",
			steps:  []mutationStep{{deleted: podWithUID("p", "u1", "5")}, {mutate: podWithUID("p", "u1", "6")}},
			wantRV: "",
		},
		{
			name:   "mutation at the deleted version is ignored",
			steps:  []mutationStep{{deleted: podWithUID("p", "u1", "5")}, {mutate: podWithUID("p", "u2", "5")}},
			wantRV: "",
		},
		{
			name:   "newer mutation of a recreated object is kept",
			steps:  []mutationStep{{deleted: podWithUID("p", "u1", "5")}, {mutate: podWithUID("p", "u2", "7")}},
			wantRV: "7",
		},
		{
			name:   "older mutation does not replace a newer one",
			steps:  []mutationStep{{mutate: podWithUID("p", "u1", "8")}, {mutate: podWithUID("p", "u1", "6")}},
			wantRV: "8",
		},
		{
			name:    "tombstone is not returned over the backing object",
			backing: podWithUID("p", "u2", "4"),
			steps:   []mutationStep{{deleted: podWithUID("p", "u1", "9")}},
			wantRV:  "4",
		},
		{
			name:   "informer update clears a tombstone",
			steps:  []mutationStep{{deleted: podWithUID("p", "u1", "5")}, {informer: podWithUID("p", "u2", "6")}, {mutate: podWithUID("p", "u1", "7")}},
			wantRV: "7",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			backing := NewStore(MetaNamespaceKeyFunc)
			if tc.backing != nil {
				if err := backing.Add(tc.backing); err != nil {
					t.Fatal(err)
				}
			}
			mc := NewIntegerResourceVersionMutationCache(klog.Background(), backing, nil, time.Hour, true)
			for _, s := range tc.steps {
				switch {
				case s.mutate != nil:
					mc.Mutation(s.mutate)
				case s.deleted != nil:
					mc.OnDelete(s.deleted)
				case s.informer != nil:
					mc.OnAddOrUpdate(s.informer)
				}
			}
			obj, exists, err := mc.GetByKey("ns/p")
			if err != nil {
				t.Fatal(err)
			}
			gotRV := ""
			if exists {
				gotRV = obj.(*v1.Pod).ResourceVersion
			}
			if gotRV != tc.wantRV {
				t.Errorf("GetByKey returned resourceVersion %q (exists %v), want %q", gotRV, exists, tc.wantRV)
			}
		})
	}
}

func TestMutationCacheByIndexSkipsTombstonesAndIndexErrors(t *testing.T) {
	indexer := NewIndexer(MetaNamespaceKeyFunc, Indexers{
		"name": func(obj interface{}) ([]string, error) {
			p := obj.(*v1.Pod)
			if p.Name == "bad" {
				return nil, errors.New("cannot index")
			}
			return []string{"all"}, nil
		},
	})
	mc := NewIntegerResourceVersionMutationCache(klog.Background(), indexer, indexer, time.Hour, true)
	mc.Mutation(podWithUID("bad", "u1", "1"))
	mc.Mutation(podWithUID("good", "u2", "2"))
	mc.OnDelete(podWithUID("gone", "u3", "3"))

	items, err := mc.ByIndex("name", "all")
	if err != nil {
		t.Fatalf("ByIndex: %v", err)
	}
	if len(items) != 1 || items[0].(*v1.Pod).Name != "good" {
		t.Errorf("ByIndex = %v, want only ns/good", keysOf(t, items))
	}
}

func TestRetryWithDeadlineWindow(t *testing.T) {
	retryable := errors.New("retryable")
	other := errors.New("other")
	isRetryable := func(err error) bool { return errors.Is(err, retryable) }
	type step struct {
		advance time.Duration
		err     error
		want    bool
	}
	tests := []struct {
		name  string
		max   time.Duration
		steps []step
	}{
		{
			name:  "zero duration never retries",
			max:   0,
			steps: []step{{err: retryable, want: false}},
		},
		{
			name:  "nothing recorded",
			max:   time.Minute,
			steps: []step{{err: nil, want: false}, {err: other, want: false}},
		},
		{
			name: "window measured from the first error",
			max:  2 * time.Second,
			steps: []step{
				{advance: time.Second, err: retryable, want: true},
				{advance: time.Second, err: retryable, want: true},
				{advance: time.Second, err: retryable, want: true},
				{advance: time.Second, err: retryable, want: false},
			},
		},
		{
			name: "other errors and successes keep the window open",
			max:  2 * time.Second,
			steps: []step{
				{err: retryable, want: true},
				{advance: time.Second, err: other, want: true},
				{err: nil, want: true},
				{advance: 2 * time.Second, err: nil, want: false},
			},
		},
		{
			name: "quiet period restarts the window",
			max:  2 * time.Second,
			steps: []step{
				{err: retryable, want: true},
				{advance: 10 * time.Second, err: retryable, want: true},
			},
		},
		{
			name: "closed window is cleared",
			max:  time.Second,
			steps: []step{
				{err: retryable, want: true},
				{advance: 2 * time.Second, err: other, want: false},
				{err: other, want: false},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := testingclock.NewFakeClock(time.Now())
			r := NewRetryWithDeadline(tc.max, 5*time.Second, isRetryable, clk)
			for i, s := range tc.steps {
				clk.Step(s.advance)
				r.After(s.err)
				if got := r.ShouldRetry(); got != s.want {
					t.Fatalf("step %d (%v): ShouldRetry = %v, want %v", i, s.err, got, s.want)
				}
			}
		})
	}
}

func TestDeltaFIFOReplaceTransformsSyncDeltas(t *testing.T) {
	transformed := 0
	known := NewStore(MetaNamespaceKeyFunc)
	if err := known.Add(pod("ns", "known", "1", map[string]string{"t": "yes"})); err != nil {
		t.Fatal(err)
	}
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{
		KeyFunction:  MetaNamespaceKeyFunc,
		KnownObjects: known,
		Transformer: func(obj interface{}) (interface{}, error) {
			transformed++
			p := obj.(*v1.Pod).DeepCopy()
			p.Labels = map[string]string{"t": "yes"}
			return p, nil
		},
	})
	if err := f.Replace([]interface{}{pod("ns", "known", "2", nil), pod("ns", "new", "2", nil)}, "2"); err != nil {
		t.Fatal(err)
	}
	if transformed != 2 {
		t.Errorf("Replace transformed %d objects, want 2", transformed)
	}
	for range 2 {
		_, err := f.Pop(func(obj interface{}, _ bool) error {
			d := obj.(Deltas).Newest()
			if d.Type != Sync {
				t.Errorf("delta type = %v, want %v", d.Type, Sync)
			}
			if p := d.Object.(*v1.Pod); p.Labels["t"] != "yes" {
				t.Errorf("%s/%s was queued untransformed", p.Namespace, p.Name)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// Resync replays the known (already transformed) objects as they are.
	if err := f.Resync(); err != nil {
		t.Fatal(err)
	}
	if transformed != 2 {
		t.Errorf("Resync called the transformer; %d calls in total, want 2", transformed)
	}
}

func TestRealFIFOPanickingProcessorUnlockWhileProcessing(t *testing.T) {
	f := NewRealFIFOWithOptions(RealFIFOOptions{KeyFunction: MetaNamespaceKeyFunc, AtomicEvents: true, UnlockWhileProcessing: true})
	for _, name := range []string{"a", "b"} {
		if err := f.Add(pod("ns", name, "1", nil)); err != nil {
			t.Fatal(err)
		}
	}
	popPanicking := func() (recovered interface{}) {
		defer func() { recovered = recover() }()
		_, _ = f.Pop(func(interface{}, bool) error { panic("handler failed") })
		return nil
	}
	if got := popPanicking(); got != "handler failed" {
		t.Fatalf("recovered %v, want the processor's panic", got)
	}
	// The queue must still be usable: its lock was released exactly once.
	var popped string
	if _, err := f.Pop(func(obj interface{}, _ bool) error {
		popped = obj.(Deltas).Newest().Object.(*v1.Pod).Name
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if popped != "b" {
		t.Errorf("popped %q, want b", popped)
	}
	if err := f.Add(pod("ns", "c", "2", nil)); err != nil {
		t.Errorf("Add after panic: %v", err)
	}
}

func TestProcessorListenerSurvivesHandlerPanic(t *testing.T) {
	old := utilruntime.ReallyCrash
	utilruntime.ReallyCrash = false
	t.Cleanup(func() { utilruntime.ReallyCrash = old })

	delivered := make(chan string, 4)
	handler := ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			name := obj.(*v1.Pod).Name
			if name == "boom" {
				panic("handler failed")
			}
			delivered <- name
		},
	}
	l := newProcessListener(klog.Background(), handler, 0, 0, time.Now(), "test")
	go l.run()
	l.add(notification{kind: addKind, newObj: pod("ns", "boom", "1", nil)})
	l.add(notification{kind: addKind, newObj: pod("ns", "next", "2", nil)})

	select {
	case name := <-delivered:
		if name != "next" {
			t.Errorf("delivered %q, want next", name)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the notification after a panicking one was never delivered")
	}

	// A listener pausing after a panic still stops promptly.
	l.add(notification{kind: addKind, newObj: pod("ns", "boom", "3", nil)})
	l.add(notification{kind: addKind, newObj: pod("ns", "never", "4", nil)})
	l.stop(true)
	select {
	case <-l.done:
	case <-time.After(10 * time.Second):
		t.Fatal("listener did not stop")
	}
}

func TestReflectorWatchListRestartsAfterIncompleteStream(t *testing.T) {
	end := pod("", "", "7", nil)
	end.Annotations = map[string]string{metav1.InitialEventsAnnotationKey: "true"}
	tests := []struct {
		name string
		// first is the initial watch-list stream, closed by the server
		// before the initial-events-end bookmark.
		first []watch.Event
	}{
		{name: "closed after one object", first: []watch.Event{{Type: watch.Added, Object: pod("ns", "a", "5", nil)}}},
		{name: "closed after two objects", first: []watch.Event{
			{Type: watch.Added, Object: pod("ns", "a", "5", nil)},
			{Type: watch.Added, Object: pod("ns", "stale", "6", nil)},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lw := &scriptedLW{
				list: func(int, metav1.ListOptions) (runtime.Object, error) {
					return nil, apierrors.NewInternalError(fmt.Errorf("list must not be called"))
				},
				watch: func(call int, opts metav1.ListOptions) (watch.Interface, error) {
					switch call {
					case 1:
						w := watch.NewFakeWithChanSize(len(tc.first), false)
						for _, e := range tc.first {
							w.Action(e.Type, e.Object)
						}
						w.Stop()
						return w, nil
					case 2:
						w := watch.NewFakeWithChanSize(2, false)
						w.Add(pod("ns", "a", "5", nil))
						w.Action(watch.Bookmark, end)
						return w, nil
					}
					return watch.NewFake(), nil
				},
			}
			store := NewStore(MetaNamespaceKeyFunc)
			r := NewReflectorWithOptions(lw, &v1.Pod{}, store, ReflectorOptions{Backoff: fastBackoff()})
			if !r.useWatchList {
				t.Skip("WatchListClient feature disabled in this environment")
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			done := make(chan struct{})
			go func() {
				defer close(done)
				r.RunWithContext(ctx)
			}()
			defer func() { cancel(); <-done }()

			waitUntil(t, "second watch-list", func() bool { return r.LastSyncResourceVersion() == "7" })
			lists, watches := lw.recorded()
			if len(lists) != 0 {
				t.Errorf("reflector fell back to list: %v", lists)
			}
			if len(watches) < 2 || watches[1].SendInitialEvents == nil || !*watches[1].SendInitialEvents {
				t.Errorf("second request is not a watch-list: %+v", watches)
			}
			if keys := store.ListKeys(); fmt.Sprint(keys) != "[ns/a]" {
				t.Errorf("store keys = %v, want [ns/a]", keys)
			}
		})
	}
}

func TestStoreTransformerRunsAfterKeying(t *testing.T) {
	errTransform := errors.New("transform failed")
	// rename moves the object to another name, so the stored key tells
	// whether the key was computed before or after the transform.
	rename := func(obj interface{}) (interface{}, error) {
		p := obj.(*v1.Pod).DeepCopy()
		if p.Name == "fail" {
			return nil, errTransform
		}
		p.Name = "renamed-" + p.Name
		return p, nil
	}
	tests := []struct {
		name    string
		op      func(Store) error
		wantKey string
		wantErr error
	}{
		{name: "Add", op: func(s Store) error { return s.Add(pod("ns", "a", "1", nil)) }, wantKey: "ns/a"},
		{name: "Update", op: func(s Store) error { return s.Update(pod("ns", "a", "1", nil)) }, wantKey: "ns/a"},
		{name: "Replace", op: func(s Store) error { return s.Replace([]interface{}{pod("ns", "a", "1", nil)}, "1") }, wantKey: "ns/a"},
		{name: "Add error", op: func(s Store) error { return s.Add(pod("ns", "fail", "1", nil)) }, wantErr: errTransform},
		{name: "Replace error", op: func(s Store) error { return s.Replace([]interface{}{pod("ns", "fail", "1", nil)}, "1") }, wantErr: errTransform},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := NewStore(MetaNamespaceKeyFunc, WithTransformer(rename))
			err := tc.op(s)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) || !strings.HasPrefix(err.Error(), "transforming: ") {
					t.Fatalf("error = %v, want a wrapped %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			obj, exists, _ := s.GetByKey(tc.wantKey)
			if !exists {
				t.Fatalf("nothing stored under %q; keys %v", tc.wantKey, s.ListKeys())
			}
			if name := obj.(*v1.Pod).Name; name != "renamed-a" {
				t.Errorf("stored object %q was not transformed", name)
			}
		})
	}
}

func TestStoreTransaction(t *testing.T) {
	transformed := 0
	failKey := func(obj interface{}) (string, error) {
		if obj.(*v1.Pod).Name == "bad" {
			return "", errors.New("no key")
		}
		return MetaNamespaceKeyFunc(obj)
	}
	tests := []struct {
		name        string
		objs        []*v1.Pod
		wantIndices []int // nil: no error expected
		wantKeys    string
	}{
		{name: "all succeed", objs: []*v1.Pod{pod("ns", "a", "1", nil)}, wantKeys: "[ns/a]"},
		{name: "all fail", objs: []*v1.Pod{pod("ns", "bad", "1", nil), pod("ns", "bad", "2", nil)}, wantIndices: []int{}, wantKeys: "[]"},
		{name: "some fail", objs: []*v1.Pod{pod("ns", "bad", "1", nil), pod("ns", "b", "2", nil)}, wantIndices: []int{1}, wantKeys: "[ns/b]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := NewStore(failKey, WithTransformer(func(obj interface{}) (interface{}, error) {
				transformed++
				return obj, nil
			}))
			var txns []Transaction
			for _, p := range tc.objs {
				txns = append(txns, Transaction{Object: p, Type: TransactionTypeAdd})
			}
			txErr := s.(TransactionStore).Transaction(txns...)
			switch {
			case tc.wantIndices == nil && txErr != nil:
				t.Fatalf("unexpected error %v", txErr)
			case tc.wantIndices != nil && txErr == nil:
				t.Fatal("expected a TransactionError")
			case tc.wantIndices != nil:
				if txErr.SuccessfulIndices == nil || fmt.Sprint(txErr.SuccessfulIndices) != fmt.Sprint(tc.wantIndices) {
					t.Errorf("SuccessfulIndices = %#v, want %#v", txErr.SuccessfulIndices, tc.wantIndices)
				}
				if txErr.TotalTransactions != len(tc.objs) {
					t.Errorf("TotalTransactions = %d, want %d", txErr.TotalTransactions, len(tc.objs))
				}
			}
			if keys := fmt.Sprint(sorted(s.ListKeys())); keys != tc.wantKeys {
				t.Errorf("keys = %s, want %s", keys, tc.wantKeys)
			}
			if transformed != 0 {
				t.Errorf("Transaction called the transformer %d times", transformed)
			}
		})
	}
}

func TestSyncResultAsError(t *testing.T) {
	cause := errors.New("stopped")
	tests := []struct {
		name   string
		result SyncResult
		want   string // "" means nil
	}{
		{name: "no error", result: SyncResult{Synced: map[reflect.Type]bool{reflect.TypeFor[int](): true}}},
		{name: "unsynced without error", result: SyncResult{Synced: map[reflect.Type]bool{reflect.TypeFor[int](): false}}},
		{
			name:   "one unsynced",
			result: SyncResult{Err: cause, Synced: map[reflect.Type]bool{reflect.TypeFor[int](): true, reflect.TypeFor[string](): false}},
			want:   "failed to sync all caches: string: stopped",
		},
		{
			name:   "sorted unsynced",
			result: SyncResult{Err: cause, Synced: map[reflect.Type]bool{reflect.TypeFor[string](): false, reflect.TypeFor[bool](): false}},
			want:   "failed to sync all caches: bool, string: stopped",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.result.AsError()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("AsError = %v, want nil", err)
				}
				return
			}
			if err == nil || err.Error() != tc.want {
				t.Fatalf("AsError = %v, want %q", err, tc.want)
			}
			if !errors.Is(err, cause) {
				t.Errorf("AsError does not wrap %v", cause)
			}
		})
	}
}

// optionsRecorder is a SharedIndexInformer that records how handlers are
// registered.
type optionsRecorder struct {
	SharedIndexInformer
	plain       int
	withOptions []HandlerOptions
}

func (r *optionsRecorder) AddEventHandler(ResourceEventHandler) (ResourceEventHandlerRegistration, error) {
	r.plain++
	return nil, nil
}

func (r *optionsRecorder) AddEventHandlerWithOptions(_ ResourceEventHandler, o HandlerOptions) (ResourceEventHandlerRegistration, error) {
	r.withOptions = append(r.withOptions, o)
	return nil, nil
}

func TestAddTypedEventHandlerUsesOptionsEntryPoint(t *testing.T) {
	period := time.Hour
	tests := []struct {
		name    string
		options []HandlerOptions
		want    []HandlerOptions
		wantErr bool
	}{
		{name: "none", want: []HandlerOptions{{}}},
		{name: "one", options: []HandlerOptions{{ResyncPeriod: &period}}, want: []HandlerOptions{{ResyncPeriod: &period}}},
		{name: "two", options: []HandlerOptions{{}, {}}, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &optionsRecorder{}
			_, err := NewTypedSharedIndexInformer[*v1.Pod](rec).AddTypedEventHandler(TypedResourceEventHandlerFuncs[*v1.Pod]{}, tc.options...)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error = %v, wantErr %v", err, tc.wantErr)
			}
			if rec.plain != 0 {
				t.Errorf("AddEventHandler called %d times, want only AddEventHandlerWithOptions", rec.plain)
			}
			if fmt.Sprint(rec.withOptions) != fmt.Sprint(tc.want) {
				t.Errorf("AddEventHandlerWithOptions got %v, want %v", rec.withOptions, tc.want)
			}
		})
	}
}

func TestReflectorStopsDuringBlockedList(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	listing := make(chan struct{}, 1)
	lw := &scriptedLW{
		noWatchList: true,
		// The list ignores cancellation, as old ListFuncs do.
		list: func(int, metav1.ListOptions) (runtime.Object, error) {
			listing <- struct{}{}
			<-release
			return podList("1", ""), nil
		},
		watch: func(int, metav1.ListOptions) (watch.Interface, error) { return watch.NewFake(), nil },
	}
	r := NewReflectorWithOptions(lw, &v1.Pod{}, NewStore(MetaNamespaceKeyFunc), ReflectorOptions{Backoff: fastBackoff()})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.RunWithContext(ctx)
	}()
	select {
	case <-listing:
	case <-time.After(10 * time.Second):
		t.Fatal("list never called")
	}
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("reflector did not stop while its list was blocked")
	}
}
