package sharding

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/test/integration/framework"
	"github.com/kubeclient/client-go/tools/sharding"
)

func adminClientset(t *testing.T) *kubernetes.Clientset {
	t.Helper()
	cfg := controlPlane.AdminConfig()
	cfg.QPS, cfg.Burst = 2000, 4000
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatalf("NewForConfig: %v", err)
	}
	return cs
}

// createConfigMaps creates n ConfigMaps named prefix-i in ns, with workers
// requests at a time, and returns them as the server stored them.
func createConfigMaps(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, prefix string, n, workers int, labels map[string]string) []*corev1.ConfigMap {
	t.Helper()
	out := make([]*corev1.ConfigMap, n)
	next := make(chan int)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				cm, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{
					ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%05d", prefix, i), Labels: labels},
					Data:       map[string]string{"i": fmt.Sprint(i)},
				}, metav1.CreateOptions{})
				if err != nil {
					errs <- fmt.Errorf("creating %s-%05d: %w", prefix, i, err)
					return
				}
				out[i] = cm
			}
		})
	}
	go func() {
		defer close(next)
		for i := range n {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	return out
}

// randomSelector returns a selector of 1 to 3 random ranges of key; some
// bounds are slot-aligned, one in four ends at the top of the space.
func randomSelector(rng *rand.Rand, key sharding.Key) sharding.Selector {
	sel := sharding.Selector{Key: key}
	for range 1 + rng.IntN(3) {
		a, b := rng.Uint64(), rng.Uint64()
		if a > b {
			a, b = b, a
		}
		if a == b {
			b++
		}
		r := sharding.Range{Start: a, End: b}
		switch rng.IntN(4) {
		case 0:
			r.End = 0
		case 1:
			r = sharding.SlotRange(rng.IntN(16), 16)
		}
		sel.Ranges = append(sel.Ranges, r)
	}
	return sel
}

// TestHashCompatibility lists ConfigMaps with random selectors, keyed by
// uid and by namespace, and checks that the server returns exactly the
// objects the client-side hash selects, and echoes the selector as
// Selector.String writes it.
func TestHashCompatibility(t *testing.T) {
	framework.DumpLogsOnFailure(t, controlPlane)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cs := adminClientset(t)
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 7))

	// uid: 400 ConfigMaps in one namespace. namespace: 40 namespaces of
	// random names with one labelled ConfigMap each.
	ns := controlPlane.Namespace(t)
	byUID := createConfigMaps(ctx, t, cs, ns, "cm", 400, 16, nil)
	run := fmt.Sprintf("hashcompat-%d", rng.Uint32())
	var namespaces []string
	for i := range 40 {
		name := fmt.Sprintf("hc-%x-%d", rng.Uint64(), i)
		if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cs.CoreV1().Namespaces().Delete(context.Background(), name, metav1.DeleteOptions{}) })
		createConfigMaps(ctx, t, cs, name, "one", 1, 1, map[string]string{"run": run})
		namespaces = append(namespaces, name)
	}

	check := func(t *testing.T, sel sharding.Selector, list func(metav1.ListOptions) (*corev1.ConfigMapList, error), all []*corev1.ConfigMap) {
		t.Helper()
		var opts metav1.ListOptions
		if err := sel.ApplyTo(&opts); err != nil {
			t.Fatal(err)
		}
		got, err := list(opts)
		if err != nil {
			t.Fatalf("list with %q: %v", opts.ShardSelector, err)
		}
		if got.ShardInfo == nil || got.ShardInfo.Selector != opts.ShardSelector {
			t.Fatalf("list with %q: shardInfo %+v, want the selector echoed", opts.ShardSelector, got.ShardInfo)
		}
		gotUIDs := map[string]bool{}
		for _, cm := range got.Items {
			gotUIDs[string(cm.UID)] = true
		}
		for _, cm := range all {
			want, err := sel.Matches(cm)
			if err != nil {
				t.Fatal(err)
			}
			if want != gotUIDs[string(cm.UID)] {
				t.Errorf("%s/%s (uid %s, namespace hash %#x, uid hash %#x): server selected %v, client %v, selector %q",
					cm.Namespace, cm.Name, cm.UID, sharding.Hash(cm.Namespace), sharding.Hash(string(cm.UID)), gotUIDs[string(cm.UID)], want, opts.ShardSelector)
			}
		}
	}

	t.Run("uid", func(t *testing.T) {
		list := func(o metav1.ListOptions) (*corev1.ConfigMapList, error) {
			return cs.CoreV1().ConfigMaps(ns).List(ctx, o)
		}
		for range 60 {
			check(t, randomSelector(rng, sharding.KeyUID), list, byUID)
		}
		// The slots of a 64-slot ring, each listed on its own, partition
		// the objects.
		seen := 0
		for i := range 64 {
			got, err := list(metav1.ListOptions{ShardSelector: sharding.SlotsSelector(sharding.KeyUID, []int{i}, 64).String()})
			if err != nil {
				t.Fatal(err)
			}
			seen += len(got.Items)
		}
		if seen != len(byUID) {
			t.Errorf("the 64 slots hold %d objects in all, want %d", seen, len(byUID))
		}
	})
	t.Run("namespace", func(t *testing.T) {
		var all []*corev1.ConfigMap
		for _, name := range namespaces {
			l, err := cs.CoreV1().ConfigMaps(name).List(ctx, metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for i := range l.Items {
				all = append(all, &l.Items[i])
			}
		}
		list := func(o metav1.ListOptions) (*corev1.ConfigMapList, error) {
			o.LabelSelector = "run=" + run
			return cs.CoreV1().ConfigMaps("").List(ctx, o)
		}
		for range 60 {
			check(t, randomSelector(rng, sharding.KeyNamespace), list, all)
		}
	})
	t.Run("watch", func(t *testing.T) {
		// A watch with a selector delivers exactly the selected objects
		// of those created after it started.
		sel := sharding.SlotsSelector(sharding.KeyUID, []int{0, 2, 3}, 5)
		w, err := cs.CoreV1().ConfigMaps(ns).Watch(ctx, metav1.ListOptions{ShardSelector: sel.String(), LabelSelector: "phase=watch"})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		created := createConfigMaps(ctx, t, cs, ns, "watched", 60, 8, map[string]string{"phase": "watch"})
		want := map[string]bool{}
		for _, cm := range created {
			if ok, _ := sel.Matches(cm); ok {
				want[string(cm.UID)] = true
			}
		}
		// A final object in the selector marks the end of the stream.
		var marker *corev1.ConfigMap
		for i := 0; marker == nil; i++ {
			cm := createConfigMaps(ctx, t, cs, ns, fmt.Sprintf("marker%d", i), 1, 1, map[string]string{"phase": "watch"})[0]
			if ok, _ := sel.Matches(cm); ok {
				marker = cm
			}
		}
		for e := range w.ResultChan() {
			if e.Type != watch.Added {
				t.Fatalf("unexpected event %s %v", e.Type, e.Object)
			}
			cm := e.Object.(*corev1.ConfigMap)
			if cm.UID == marker.UID {
				break
			}
			if !want[string(cm.UID)] {
				if ok, _ := sel.Matches(cm); !ok {
					t.Errorf("watch delivered %s outside the selector", cm.Name)
				}
				continue
			}
			delete(want, string(cm.UID))
		}
		if len(want) > 0 {
			t.Errorf("watch missed %d selected objects", len(want))
		}
	})
}

// TestSelectorGrammarCompatibility sends selectors to the server and
// checks that it accepts exactly those ParseSelector accepts, and echoes
// them as Selector.String writes them.
func TestSelectorGrammarCompatibility(t *testing.T) {
	framework.DumpLogsOnFailure(t, controlPlane)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs := adminClientset(t)
	ns := controlPlane.Namespace(t)
	const (
		zero = "'0x0000000000000000'"
		half = "'0x8000000000000000'"
		top  = "'0x10000000000000000'"
	)
	inputs := []string{
		"shardRange(object.metadata.uid, " + zero + ", " + half + ")",
		"shardRange(object.metadata.uid, " + half + ", " + top + ")",
		"shardRange(object.metadata.namespace, " + zero + ", " + top + ")",
		"shardRange(object.metadata.uid," + zero + "," + half + ")||shardRange(object.metadata.uid," + half + "," + top + ")",
		`shardRange(object.metadata.uid, "0x0000000000000000", "0x00000000000000ff")`,
		"shardRange(object.metadata.uid, '0x0', " + half + ")",
		"shardRange(object.metadata.uid, " + zero + ", '0x8')",
		"shardRange(object.metadata.uid, '0x000000000000000A', " + half + ")",
		"shardRange(object.metadata.uid, '0000000000000000', " + half + ")",
		"shardRange(object.metadata.uid, " + half + ", " + half + ")",
		"shardRange(object.metadata.uid, " + top + ", " + top + ")",
		"shardRange(object.metadata.uid, " + half + ", " + zero + ")",
		"shardRange(object.metadata.uid, '0x20000000000000000', " + top + ")",
		"shardRange(object.metadata.name, " + zero + ", " + half + ")",
		"shardRange(object.metadata.uid, " + zero + ", " + half + ") || shardRange(object.metadata.namespace, " + zero + ", " + half + ")",
		"shardRange(object.metadata.uid, " + zero + ")",
		"shardRange(object.metadata.uid, " + zero + ", " + half + ") && shardRange(object.metadata.uid, " + zero + ", " + half + ")",
		"otherFunction(object.metadata.uid, " + zero + ", " + half + ")",
	}
	for _, in := range inputs {
		parsed, parseErr := sharding.ParseSelector(in)
		got, serverErr := cs.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{ShardSelector: in, Limit: 1})
		switch {
		case (parseErr == nil) != (serverErr == nil):
			t.Errorf("%s: ParseSelector error %v, server error %v", in, parseErr, serverErr)
		case parseErr == nil && (got.ShardInfo == nil || got.ShardInfo.Selector != parsed.String()):
			t.Errorf("%s: server echoed %+v, ParseSelector reads %q", in, got.ShardInfo, parsed.String())
		}
	}
}
