package cache

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	fcache "github.com/kubeclient/client-go/tools/cache/testing"
)

func TestSharedInformerHandlersAndSync(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		source := fcache.NewFakeControllerSource()
		defer source.Shutdown()
		source.Add(pod("ns", "a", "", nil))
		source.Add(pod("ns", "b", "", nil))
		inf := NewSharedIndexInformer(source, &v1.Pod{}, 0, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})

		early := &eventLog{}
		reg, err := inf.AddEventHandler(early)
		if err != nil {
			t.Fatal(err)
		}
		if reg.HasSynced() {
			t.Fatal("registration synced before the informer ran")
		}
		stop := startInformer(t, inf)
		defer stop()

		if !WaitFor(context.Background(), "", inf.HasSyncedChecker(), reg.HasSyncedChecker()) {
			t.Fatal("WaitFor failed")
		}
		if !inf.HasSynced() || !reg.HasSynced() {
			t.Fatal("not synced after WaitFor")
		}
		if got := early.sortedSnapshot(); strings.Join(got, ";") != "add a initial=true;add b initial=true" {
			t.Errorf("early handler saw %v", got)
		}

		late := &eventLog{}
		lateReg, err := inf.AddEventHandler(late)
		if err != nil {
			t.Fatal(err)
		}
		settled(t, "late handler sync", lateReg.HasSynced)
		if got := late.sortedSnapshot(); strings.Join(got, ";") != "add a initial=true;add b initial=true" {
			t.Errorf("late handler saw %v", got)
		}

		p := pod("ns", "a", "", map[string]string{"v": "2"})
		source.Modify(p)
		source.Delete(pod("ns", "b", "", nil))
		source.Add(pod("ns", "c", "", nil))
		for _, l := range []*eventLog{early, late} {
			settled(t, "watch events", func() bool { return len(l.snapshot()) == 5 })
			if got := l.snapshot()[2:]; strings.Join(got, ";") != "update a;delete b;add c initial=false" {
				t.Errorf("events after sync = %v", got)
			}
		}
		if objs, _ := inf.GetIndexer().ByIndex(NamespaceIndex, "ns"); len(objs) != 2 {
			t.Errorf("indexer holds %d objects in ns", len(objs))
		}
		settled(t, "last sync rv", func() bool { return inf.LastSyncResourceVersion() == "5" })
		if inf.GetController().LastSyncResourceVersion() != "5" || !inf.GetController().HasSynced() {
			t.Error("GetController view disagrees")
		}
	})
}

func TestSharedInformerRelistDeletionIsTombstone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		source := fcache.NewFakeControllerSource()
		defer source.Shutdown()
		source.Add(pod("ns", "a", "", nil))
		source.Add(pod("ns", "b", "", nil))
		inf := NewSharedInformer(source, &v1.Pod{}, 0)
		log := &eventLog{}
		reg, _ := inf.AddEventHandler(log)
		stop := startInformer(t, inf)
		defer stop()
		settled(t, "sync", reg.HasSynced)
		// The deletion is never watched; only a relist can notice it.
		source.DeleteDropWatch(pod("ns", "b", "", nil))
		source.ResetWatch()
		// The reflector backs off (with jitter, up to twice the initial
		// delay) before it relists.
		time.Sleep(2 * defaultBackoffInit)
		settled(t, "tombstone", func() bool {
			for _, e := range log.snapshot() {
				if e == "delete tombstone:ns/b" {
					return true
				}
			}
			return false
		})
		if _, ok, _ := inf.GetStore().GetByKey("ns/b"); ok {
			t.Error("ns/b still cached")
		}
	})
}

// blockingHandler blocks in OnAdd until released.
type blockingHandler struct {
	release chan struct{}
}

func (b blockingHandler) OnAdd(interface{}, bool) { <-b.release }

func (b blockingHandler) OnUpdate(_, _ interface{}) {}

func (b blockingHandler) OnDelete(interface{}) {}

func TestSlowHandlerDoesNotBlockOthers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		source := fcache.NewFakeControllerSource()
		defer source.Shutdown()
		inf := NewSharedInformer(source, &v1.Pod{}, 0)
		slow := blockingHandler{release: make(chan struct{})}
		fast := &eventLog{}
		_, _ = inf.AddEventHandler(slow)
		_, _ = inf.AddEventHandler(fast)
		stop := startInformer(t, inf)
		defer stop()
		// Runs before stop: the informer waits for its handlers to return.
		defer close(slow.release)
		settled(t, "sync", inf.HasSynced)
		for i := 0; i < 2000; i++ {
			source.Add(pod("ns", fmt.Sprintf("p%d", i), "", nil))
		}
		settled(t, "fast handler", func() bool { return len(fast.snapshot()) == 2000 })
	})
}

func TestRemoveAndShutDownEventHandler(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		source := fcache.NewFakeControllerSource()
		defer source.Shutdown()
		inf := NewSharedInformer(source, &v1.Pod{}, 0)
		kept, removed := &eventLog{}, &eventLog{}
		_, _ = inf.AddEventHandler(kept)
		reg, _ := inf.AddEventHandler(removed)
		stop := startInformer(t, inf)
		defer stop()
		settled(t, "sync", inf.HasSynced)
		source.Add(pod("ns", "a", "", nil))
		settled(t, "first event", func() bool { return len(removed.snapshot()) == 1 })
		if err := ShutDownEventHandler(inf, reg); err != nil {
			t.Fatal(err)
		}
		if err := inf.RemoveEventHandler(reg); err != nil {
			t.Fatalf("second removal must be a no-op: %v", err)
		}
		source.Add(pod("ns", "b", "", nil))
		settled(t, "kept handler", func() bool { return len(kept.snapshot()) == 2 })
		if n := len(removed.snapshot()); n != 1 {
			t.Errorf("removed handler got %d events", n)
		}
		if err := inf.RemoveEventHandler(struct {
			ResourceEventHandlerRegistration
		}{}); err == nil {
			t.Error("foreign registration accepted")
		}
	})
}

func TestSharedInformerPerHandlerResync(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		source := fcache.NewFakeControllerSource()
		defer source.Shutdown()
		source.Add(pod("ns", "a", "", nil))
		inf := NewSharedInformer(source, &v1.Pod{}, time.Second)
		syncing, quiet := &eventLog{}, &eventLog{}
		_, _ = inf.AddEventHandlerWithResyncPeriod(syncing, time.Second)
		_, _ = inf.AddEventHandlerWithOptions(quiet, HandlerOptions{ResyncPeriod: new(time.Duration)})
		stop := startInformer(t, inf)
		defer stop()
		time.Sleep(time.Second) // the resync period
		settled(t, "resync", func() bool {
			for _, e := range syncing.snapshot() {
				if e == "update a" {
					return true
				}
			}
			return false
		})
		for _, e := range quiet.snapshot() {
			if strings.HasPrefix(e, "update") {
				t.Errorf("handler without resync got %q", e)
			}
		}
	})
}

func TestSharedInformerTransformAndSettersAfterStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		source := fcache.NewFakeControllerSource()
		defer source.Shutdown()
		source.Add(pod("ns", "a", "", map[string]string{"big": "label"}))
		inf := NewSharedInformer(source, &v1.Pod{}, 0)
		if err := inf.SetTransform(func(obj interface{}) (interface{}, error) {
			p := obj.(*v1.Pod)
			p.Labels = nil
			return p, nil
		}); err != nil {
			t.Fatal(err)
		}
		stop := startInformer(t, inf)
		settled(t, "sync", inf.HasSynced)
		obj, _, _ := inf.GetStore().GetByKey("ns/a")
		if obj.(*v1.Pod).Labels != nil {
			t.Error("transform not applied")
		}
		if err := inf.SetTransform(nil); err == nil {
			t.Error("SetTransform after start must fail")
		}
		if err := inf.SetWatchErrorHandler(func(*Reflector, error) {}); err == nil {
			t.Error("SetWatchErrorHandler after start must fail")
		}
		stop()
		if !inf.IsStopped() {
			t.Error("IsStopped false after stop")
		}
		if _, err := inf.AddEventHandler(&eventLog{}); err == nil {
			t.Error("adding a handler to a stopped informer must fail")
		}
	})
}

var _ = metav1.ObjectMeta{}

// TestSharedInformerResyncPeriodAdmission checks the period each handler
// gets: at least a second, and a multiple of the informer's check period,
// which handlers added before the start may lower.
func TestSharedInformerResyncPeriodAdmission(t *testing.T) {
	type add struct {
		requested  time.Duration
		useDefault bool
	}
	for _, tc := range []struct {
		name       string
		defaultRP  time.Duration
		before     []add // added before the start
		after      []add // added once started
		wantPeriod []time.Duration
		wantCheck  time.Duration
	}{
		{name: "no resyncs", defaultRP: 0, before: []add{{useDefault: true}, {requested: 0}},
			wantPeriod: []time.Duration{0, 0}, wantCheck: 0},
		{name: "too small raised to a second", defaultRP: time.Minute, before: []add{{requested: time.Millisecond}},
			wantPeriod: []time.Duration{time.Second}, wantCheck: time.Second},
		{name: "smaller period lowers the check period before the start",
			defaultRP: time.Minute, before: []add{{useDefault: true}, {requested: 10 * time.Second}},
			wantPeriod: []time.Duration{time.Minute, 10 * time.Second}, wantCheck: 10 * time.Second},
		{name: "after the start a smaller period is raised to the check period",
			defaultRP: time.Minute, before: []add{{useDefault: true}}, after: []add{{requested: 10 * time.Second}, {requested: 2 * time.Minute}},
			wantPeriod: []time.Duration{time.Minute, time.Minute, 2 * time.Minute}, wantCheck: time.Minute},
		{name: "informer without resyncs never resyncs", defaultRP: 0, before: []add{{requested: time.Minute}},
			wantPeriod: []time.Duration{0}, wantCheck: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inf := NewSharedIndexInformer(fcache.NewFakeControllerSource(), &v1.Pod{}, tc.defaultRP, Indexers{}).(*sharedIndexInformer)
			var regs []*processorListener
			register := func(a add) {
				var reg ResourceEventHandlerRegistration
				var err error
				if a.useDefault {
					reg, err = inf.AddEventHandler(&eventLog{})
				} else {
					reg, err = inf.AddEventHandlerWithResyncPeriod(&eventLog{}, a.requested)
				}
				if err != nil {
					t.Fatal(err)
				}
				regs = append(regs, reg.(*processorListener))
			}
			for _, a := range tc.before {
				register(a)
			}
			if len(tc.after) > 0 {
				inf.startedLock.Lock()
				inf.started = true // as RunWithContext does; nothing runs
				inf.startedLock.Unlock()
			}
			for _, a := range tc.after {
				register(a)
			}
			for i, l := range regs {
				l.lock.Lock()
				got := l.resyncPeriod
				l.lock.Unlock()
				if got != tc.wantPeriod[i] {
					t.Errorf("handler %d: resync period %v, want %v", i, got, tc.wantPeriod[i])
				}
			}
			if inf.resyncCheckPeriod != tc.wantCheck {
				t.Errorf("check period %v, want %v", inf.resyncCheckPeriod, tc.wantCheck)
			}
		})
	}
}

// TestSharedInformerLifecycle runs an informer through Run(stopCh) and
// checks the read-only controller view and the lifecycle queries.
func TestSharedInformerLifecycle(t *testing.T) {
	source := fcache.NewFakeControllerSource()
	defer source.Shutdown()
	source.Add(pod("ns", "a", "", nil))
	inf := NewSharedIndexInformerWithOptions(source, &v1.Pod{}, SharedIndexInformerOptions{ObjectDescription: "pods"}).(*sharedIndexInformer)
	if inf.HasStarted() || inf.IsStopped() || inf.LastSyncResourceVersion() != "" {
		t.Fatal("a new informer must be neither started nor stopped and have no resource version")
	}
	view := inf.GetController()
	if name := view.HasSyncedChecker().Name(); name != "pods" {
		t.Errorf("checker name %q, want the object description", name)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		inf.Run(stop)
	}()
	if !WaitFor(context.Background(), "", view.HasSyncedChecker()) {
		t.Fatal("never synced")
	}
	view.Run(stop)                            // a no-op: the informer runs its own controller
	view.RunWithContext(context.Background()) // likewise
	if !inf.HasStarted() || !view.HasSynced() || view.LastSyncResourceVersion() == "" {
		t.Errorf("started=%v synced=%v rv=%q", inf.HasStarted(), view.HasSynced(), view.LastSyncResourceVersion())
	}
	close(stop)
	<-done
	if !inf.IsStopped() {
		t.Error("not stopped after Run returned")
	}
	inf.Run(make(chan struct{})) // a second run returns at once
}

// TestGetControllerIsReadOnly: the controller an informer hands out cannot
// start it; its Run methods return at once and the informer stays unstarted.
func TestGetControllerIsReadOnly(t *testing.T) {
	source := fcache.NewFakeControllerSource()
	defer source.Shutdown()
	source.Add(pod("ns", "a", "", nil))
	informer := NewSharedIndexInformer(source, &v1.Pod{}, 0, Indexers{})
	ctrl := informer.GetController()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ctrl.RunWithContext(ctx) // returns at once: ctx is still live
	ctrl.Run(ctx.Done())
	if informer.HasSynced() || ctrl.HasSynced() {
		t.Error("the read-only controller started the informer")
	}
	if len(informer.GetStore().List()) != 0 {
		t.Error("objects were listed")
	}
}
