package cachesafety

import (
	"context"
	"math/rand"
	"strconv"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/dynamic"
	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/metadata"
	"github.com/kubeclient/client-go/rest"
)

// TestCorruptInputIsAnError sends each client truncated and corrupted
// list pages and watch frames, as the isolation test's informers receive
// them: a LIST must fail with an error; a WATCH delivers the events before
// the bad frame and then ends, with an ERROR event or (a stream cut inside
// an event, as client-go does) without; never an object decoded from the
// bad frame, never a panic.
func TestCorruptInputIsAnError(t *testing.T) {
	seed := *seedFlag
	if seed == 0 {
		seed = time.Now().UnixNano()
	}
	t.Logf("seed %d (replay with -cachesafety.seed=%d)", seed, seed)
	cases := 8
	if *long {
		cases = 200
	}
	for _, v := range []variant{
		{client: typed},
		{client: typed, protobuf: true},
		{client: dynamicClient},
		{client: metadataClient, protobuf: true},
		{client: metadataClient},
	} {
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			g := &docGen{rng: rand.New(rand.NewSource(seed)), wire: v.wire(), rv: 100}
			for range cases {
				ep := &epoch{badPage: g.corruptPage}
				for range 3 {
					body, _ := g.next(-1)
					ep.items = append(ep.items, g.wire.item(body))
				}
				ep.rv = g.rv
				body, rv := g.next(-1)
				ep.events = []frame{{rv: rv, bytes: g.wire.frame(watch.Added, g.wire.object(body))}}
				body, _ = g.next(-1)
				ep.tail = g.corruptFrame(body)
				srv := newAPIServer(t, g.wire, 100, []*epoch{ep})
				list, watchFrom := clientCalls(t, v, srv.srv.URL)
				if err := list(); err == nil {
					t.Fatalf("LIST of a corrupted page succeeded")
				}
				if err := list(); err != nil {
					t.Fatalf("LIST of a good page: %v", err)
				}
				w, err := watchFrom(ep.rv)
				if err != nil {
					t.Fatal(err)
				}
				var types []watch.EventType
				for ev := range w.ResultChan() {
					types = append(types, ev.Type)
				}
				if len(types) == 0 || len(types) > 2 || types[0] != watch.Added || len(types) == 2 && types[1] != watch.Error {
					t.Fatalf("watch with a bad frame after one event delivered %v, want [ADDED] or [ADDED ERROR]", types)
				}
			}
		})
	}
}

// clientCalls returns a LIST and a WATCH of pods by v's client.
func clientCalls(t *testing.T, v variant, url string) (list func() error, watchFrom func(rv int64) (watch.Interface, error)) {
	cfg := &rest.Config{Host: url, QPS: 1000, Burst: 1000}
	cfg.ContentType = "application/json"
	if v.protobuf {
		cfg.ContentType = "application/vnd.kubernetes.protobuf"
	}
	ctx := context.Background()
	opts := func(rv int64) metav1.ListOptions {
		return metav1.ListOptions{ResourceVersion: strconv.FormatInt(rv, 10)}
	}
	switch v.client {
	case dynamicClient:
		dc, err := dynamic.NewForConfig(cfg)
		if err != nil {
			t.Fatal(err)
		}
		r := dc.Resource(podsGVR)
		return func() error { _, err := r.List(ctx, metav1.ListOptions{}); return err },
			func(rv int64) (watch.Interface, error) { return r.Watch(ctx, opts(rv)) }
	case metadataClient:
		mc, err := metadata.NewForConfig(cfg)
		if err != nil {
			t.Fatal(err)
		}
		r := mc.Resource(podsGVR)
		return func() error { _, err := r.List(ctx, metav1.ListOptions{}); return err },
			func(rv int64) (watch.Interface, error) { return r.Watch(ctx, opts(rv)) }
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	pods := cs.CoreV1().Pods("")
	return func() error { _, err := pods.List(ctx, metav1.ListOptions{}); return err },
		func(rv int64) (watch.Interface, error) { return pods.Watch(ctx, opts(rv)) }
}
