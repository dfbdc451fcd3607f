package cachesafety

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/tools/cache"
)

// readerScript is the server side of a concurrent-reader run: a paginated
// list, MODIFIED events, a 410 Expired and a relist with newer pods, more
// MODIFIED events; and the last document of each pod.
type readerScript struct {
	epochs []*epoch
	final  int64             // the resource version of the last event
	last   map[string][]byte // namespace/name -> the pod's last object on the wire
}

func buildReaderScript(sz sizes, wire wireFormat) readerScript {
	type state struct {
		restarts int32
		rollout  int
	}
	st := make([]state, sz.pods)
	rv := int64(1000)
	last := map[string][]byte{}
	podAt := func(i int) *corev1.Pod {
		return fixturePod(i, sz.groupSize, sz.nodes, rv, st[i].restarts, st[i].rollout)
	}
	remember := func(p *corev1.Pod, body []byte) {
		last[p.Namespace+"/"+p.Name] = wire.object(body)
	}
	list := func() *epoch {
		ep := &epoch{}
		for i := range sz.pods {
			rv++
			p := podAt(i)
			body := wire.body(p)
			remember(p, body)
			ep.items = append(ep.items, wire.item(body))
		}
		ep.rv = rv
		return ep
	}
	modify := func(ep *epoch, n, salt int) {
		for k := range n {
			i := (k*7919 + salt) % sz.pods
			st[i].restarts++
			if k%10 == 0 {
				// A rollout step: the pod takes its group's next labels,
				// annotations and template (byte-identical to the other
				// pods of the group at that step).
				st[i].rollout = (st[i].rollout + 1) % 3
			}
			rv++
			p := podAt(i)
			body := wire.body(p)
			remember(p, body)
			ep.events = append(ep.events, frame{rv: rv, bytes: wire.frame(watch.Modified, wire.object(body))})
		}
	}
	first := list()
	modify(first, sz.events, 0)
	first.tail = wire.expired(first.rv)
	for i := range sz.pods {
		if i%3 == 0 {
			st[i].restarts++
		}
	}
	second := list()
	modify(second, sz.after, 13)
	return readerScript{epochs: []*epoch{first, second}, final: rv, last: last}
}

// TestConcurrentReaders reads the cache of each informer variant as
// controllers do, from two goroutines, while list pages, watch events and
// a relist stream into it. Under -race a write into a value shared by
// published objects is a DATA RACE; without it, often a fatal
// "concurrent map iteration and map write". At the end every cached pod
// must equal apimachinery's decoding of its last document.
func TestConcurrentReaders(t *testing.T) {
	for _, v := range allVariants() {
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			testConcurrentReaders(t, v, readerSizes(v))
		})
	}
}

func testConcurrentReaders(t *testing.T, v variant, sz sizes) {
	began := time.Now()
	wire := v.wire()
	script := buildReaderScript(sz, wire)
	srv := newAPIServer(t, wire, sz.pageSize, script.epochs)
	srv.release = make(chan struct{})
	r := newRig(t, v, srv.srv.URL)

	var maxRV atomic.Int64
	done := make(chan struct{})
	var once sync.Once
	// ticks wake each reader when the handler has seen an object: a
	// reader reads a round, then waits for the cache to change.
	ticks := [2]chan struct{}{make(chan struct{}, 1), make(chan struct{}, 1)}
	seen := func(obj interface{}) {
		for _, tick := range ticks {
			select {
			case tick <- struct{}{}:
			default:
			}
		}
		rv := resourceVersion(obj)
		for {
			cur := maxRV.Load()
			if rv <= cur || maxRV.CompareAndSwap(cur, rv) {
				break
			}
		}
		if rv >= script.final {
			once.Do(func() { close(done) })
		}
	}
	if _, err := r.informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    seen,
		UpdateFunc: func(_, obj interface{}) { seen(obj) },
	}); err != nil {
		t.Fatal(err)
	}

	stopReaders := make(chan struct{})
	var readers sync.WaitGroup
	var rounds [2]atomic.Int64
	started := make(chan struct{}, 2)
	for k := range 2 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			readLoop(t, r, sz, k, stopReaders, ticks[k], &rounds[k], started)
		}()
	}
	stopInformer := r.run()
	defer stopInformer()
	<-started
	<-started
	close(srv.release)

	waitClosed(t, done, 5*time.Minute, func() string {
		lists, watches := srv.stats()
		return fmt.Sprintf("handler saw resource version %d of %d (%d LIST, %d WATCH requests)", maxRV.Load(), script.final, lists, watches)
	})
	close(stopReaders)
	readers.Wait()
	stopInformer()

	checkCache(t, v, r, script.last)
	lists, watches := srv.stats()
	t.Logf("%s: %d pods, %d events, %d LIST and %d WATCH requests, reader rounds %d/%d (%d objects listed by all runs so far), %v",
		v, sz.pods, sz.events+sz.after, lists, watches, rounds[0].Load(), rounds[1].Load(), reads.Load(), time.Since(began).Round(time.Millisecond))
}

// readLoop is one reader: it lists the cache and reads every object as
// controllers do, round after round, each after the cache changed (tick),
// until stop is closed; it signals started after its first round.
func readLoop(t *testing.T, r *rig, sz sizes, k int, stop, tick <-chan struct{}, rounds *atomic.Int64, started chan<- struct{}) {
	sels := []labels.Selector{
		labels.SelectorFromSet(labels.Set{"app.kubernetes.io/name": newGroup(k).app}),
		mustParse(t, "tier in (frontend,backend),app.kubernetes.io/part-of=shop,!canary"),
	}
	indexer := r.informer.GetIndexer()
	for {
		objs, err := r.lister.List(labels.Everything())
		if err != nil {
			t.Error(err)
			return
		}
		for i, obj := range objs {
			readObject(obj, sels, true)
			if i%7 != k {
				continue
			}
			m, err := meta.Accessor(obj)
			if err != nil {
				t.Error(err)
				return
			}
			if got, err := r.lister.Get(m.GetNamespace(), m.GetName()); err != nil || got == nil {
				t.Errorf("lister Get %s/%s: %v", m.GetNamespace(), m.GetName(), err)
				return
			}
		}
		same, err := indexer.ByIndex(byApp, newGroup(int(rounds.Load())%max(1, sz.pods/sz.groupSize)).app)
		if err != nil {
			t.Error(err)
			return
		}
		for _, o := range same {
			readObject(o.(runtime.Object), sels, true)
		}
		if _, err := r.lister.List(sels[0]); err != nil {
			t.Error(err)
			return
		}
		for _, node := range []string{"node-000", fmt.Sprintf("node-%03d", sz.nodes-1)} {
			onNode, err := indexer.ByIndex(byNode, node)
			if err != nil {
				t.Error(err)
				return
			}
			for _, o := range onNode {
				readObject(o.(runtime.Object), sels, true)
			}
		}
		reads.Add(int64(len(objs)))
		if rounds.Add(1) == 1 {
			started <- struct{}{}
		}
		select {
		case <-stop:
			return
		case <-tick:
		}
	}
}

// reads counts the objects the readers listed, for the log.
var reads atomic.Int64

// sink keeps readObject's reads from being optimized away.
var sink atomic.Int64

// readObject reads obj as a controller does: its labels and annotations,
// selectors matching them, a pod's container resources and, when deep,
// a DeepCopy (which reads all of it).
func readObject(obj runtime.Object, sels []labels.Selector, deep bool) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return
	}
	n := 0
	for k, v := range m.GetLabels() {
		n += len(k) + len(v)
	}
	for k, v := range m.GetAnnotations() {
		n += len(k) + len(v)
	}
	set := labels.Set(m.GetLabels())
	for _, s := range sels {
		if s.Matches(set) {
			n++
		}
	}
	if deep {
		cp := obj.DeepCopyObject()
		if pod, ok := cp.(*corev1.Pod); ok && len(pod.Spec.Containers) > 0 {
			n += len(pod.Spec.Containers[0].Resources.Requests)
		}
	}
	if pod, ok := obj.(*corev1.Pod); ok {
		for _, c := range pod.Spec.Containers {
			for name := range c.Resources.Requests {
				n += len(name)
			}
			for _, e := range c.Env {
				n += len(e.Value)
			}
		}
	}
	sink.Add(int64(n))
}

func mustParse(t testing.TB, s string) labels.Selector {
	sel, err := labels.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return sel
}

// checkCache compares every cached object with apimachinery's decoding of
// its last document on the wire, transformed as the informer's transform
// does.
func checkCache(t *testing.T, v variant, r *rig, last map[string][]byte) {
	t.Helper()
	keys := r.informer.GetStore().ListKeys()
	if len(keys) != len(last) {
		t.Errorf("cache holds %d objects, want %d", len(keys), len(last))
	}
	bad := 0
	for key, doc := range last {
		got, ok, err := r.informer.GetStore().GetByKey(key)
		if err != nil || !ok {
			t.Errorf("%s: not in the cache (%v)", key, err)
			continue
		}
		want, err := decodeReference(v.wire(), doc, v.client == dynamicClient)
		if err != nil {
			t.Fatalf("%s: apimachinery cannot decode the document the server sent: %v", key, err)
		}
		if d := difference(v, got.(runtime.Object), v.transformed(want)); d != "" {
			if bad++; bad <= 3 {
				t.Errorf("%s: cached object differs from apimachinery's decoding of its last document: %s", key, d)
			}
		}
	}
	if bad > 3 {
		t.Errorf("... %d objects differ in all", bad)
	}
}

// difference describes how got differs from want ("" if it does not),
// ignoring the type meta that clients set or clear.
func difference(v variant, got, want runtime.Object) string {
	got, want = got.DeepCopyObject(), want.DeepCopyObject()
	for _, o := range []runtime.Object{got, want} {
		if u, ok := o.(*unstructured.Unstructured); ok {
			u.SetKind(v.wire().kind())
			u.SetAPIVersion(v.wire().apiVersion())
			continue
		}
		o.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
	}
	if apiequality.Semantic.DeepEqual(got, want) {
		return ""
	}
	gm, _ := meta.Accessor(got)
	wm, _ := meta.Accessor(want)
	if gm != nil && wm != nil && !apiequality.Semantic.DeepEqual(gm.GetLabels(), wm.GetLabels()) {
		return fmt.Sprintf("labels %v, want %v", gm.GetLabels(), wm.GetLabels())
	}
	if gm != nil && wm != nil && !apiequality.Semantic.DeepEqual(gm.GetAnnotations(), wm.GetAnnotations()) {
		return fmt.Sprintf("annotations %v, want %v", gm.GetAnnotations(), wm.GetAnnotations())
	}
	return fmt.Sprintf("\n got %+v\nwant %+v", got, want)
}
