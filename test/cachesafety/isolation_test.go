package cachesafety

import (
	"bytes"
	"fmt"
	"math/rand"
	"reflect"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/tools/cache"
)

// docKind is one kind of document of the random sequence.
type docKind int

const (
	validDoc docKind = iota
	dupLabels
	dupMetadata
	dupKeyInLabels
	dupAnnotations
	dupSpec
	dupResources
	docKinds
)

var docKindNames = [...]string{"valid", "labels twice", "metadata twice", "a key twice in labels", "annotations twice", "spec twice", "container resources twice"}

// docGen makes the random documents of one wire format. Pods come from a
// few groups, so that equal labels, annotations and specs repeat across
// documents as in a cluster; crafted documents repeat keys and fields at
// every level.
type docGen struct {
	rng   *rand.Rand
	wire  wireFormat
	rv    int64
	pods  int // pods named so far
	names []int
	kinds [docKinds]int
}

// extraKeys are the keys crafted documents add, few so that crafted maps
// repeat byte for byte too.
var extraKeys = []string{"evil", "canary", "shard-1", "tier"}

// next returns the body of a new version of pod i (a new pod when i < 0)
// and its resource version.
func (g *docGen) next(i int) ([]byte, int64) {
	if i < 0 {
		i = g.pods
		g.pods++
		g.names = append(g.names, i)
	}
	g.rv++
	p := fixturePod(i, 10, 3, g.rv, int32(g.rng.Intn(3)), g.rng.Intn(2))
	body := g.wire.body(p)
	kind := docKind(0)
	if g.rng.Intn(3) > 0 {
		kind = docKind(1 + g.rng.Intn(int(docKinds)-1))
	}
	if g.wire.metadata && (kind == dupSpec || kind == dupResources) {
		kind = validDoc
	}
	if g.wire.protobuf && kind == dupResources {
		kind = dupSpec
	}
	g.kinds[kind]++
	key := extraKeys[g.rng.Intn(len(extraKeys))]
	return g.craft(kind, body, p, key), g.rv
}

func (g *docGen) craft(kind docKind, body []byte, p *corev1.Pod, key string) []byte {
	if g.wire.protobuf {
		return g.craftProto(kind, body, key)
	}
	switch kind {
	case dupLabels:
		return insertAfterObject(body, `"labels":{`, fmt.Sprintf(`,"labels":{%q:"1"}`, key))
	case dupMetadata:
		second := fmt.Sprintf(`,"metadata":{"name":%q,"namespace":%q,"resourceVersion":%q,"labels":{%q:"1"},"annotations":{%q:"2"}}}`,
			p.Name, p.Namespace, p.ResourceVersion, key, key)
		return append(bytes.TrimSuffix(body, []byte("}")), second...)
	case dupKeyInLabels:
		return insertAtObjectEnd(body, `"labels":{`, `,"tier":"shadow"`)
	case dupAnnotations:
		// Before the real map: annotation values may hold braces.
		return replaceOnce(body, `"annotations":{`, fmt.Sprintf(`"annotations":{%q:"1","prometheus.io/port":"9999"},"annotations":{`, key))
	case dupSpec:
		return append(bytes.TrimSuffix(body, []byte("}")), `,"spec":{"containers":[{"name":"extra","image":"registry.example.com/extra:1"}]}}`...)
	case dupResources:
		return replaceOnce(body, `"resources":{`, `"resources":{"requests":{"cpu":"3","ephemeral-storage":"1Gi"}},"resources":{`)
	}
	return body
}

// insertAfterObject inserts extra after the flat JSON object that starts
// with the first occurrence of open (a map of strings: no nested braces).
func insertAfterObject(body []byte, open, extra string) []byte {
	at := bytes.Index(body, []byte(open))
	if at < 0 {
		return body
	}
	end := at + bytes.IndexByte(body[at:], '}') + 1
	return append(append(append([]byte{}, body[:end]...), extra...), body[end:]...)
}

// insertAtObjectEnd inserts extra before the closing brace of that object.
func insertAtObjectEnd(body []byte, open, extra string) []byte {
	at := bytes.Index(body, []byte(open))
	if at < 0 {
		return body
	}
	end := at + bytes.IndexByte(body[at:], '}')
	return append(append(append([]byte{}, body[:end]...), extra...), body[end:]...)
}

func (g *docGen) craftProto(kind docKind, body []byte, key string) []byte {
	var err error
	out := body
	switch kind {
	case dupLabels:
		out, err = appendToField(body, podMetadataField, append(mapEntry(metaAnnotationField, "split", "1"), mapEntry(metaLabelsField, key, "1")...))
	case dupMetadata:
		var second []byte
		second = protowire.AppendTag(second, podMetadataField, protowire.BytesType)
		inner := append(mapEntry(metaLabelsField, key, "1"), mapEntry(metaAnnotationField, key, "2")...)
		out = append(bytes.Clone(body), protowire.AppendBytes(second, inner)...)
	case dupKeyInLabels:
		out, err = appendToField(body, podMetadataField, mapEntry(metaLabelsField, "tier", "shadow"))
	case dupAnnotations:
		out, err = appendToField(body, podMetadataField, append(mapEntry(metaLabelsField, key, "1"), mapEntry(metaAnnotationField, "prometheus.io/port", "9999")...))
	case dupSpec:
		c, cerr := (&corev1.Container{Name: "extra", Image: "registry.example.com/extra:1"}).Marshal()
		if cerr != nil {
			panic(cerr)
		}
		spec := appendField(nil, 2, c) // PodSpec.containers
		out = appendField(bytes.Clone(body), podSpecField, spec)
	}
	if err != nil {
		panic(err)
	}
	return out
}

// corruptFrame returns a watch frame the client cannot decode: cut in the
// middle, or with a byte no decoder accepts (a control character in JSON,
// a field of wire type 7 in protobuf).
func (g *docGen) corruptFrame(body []byte) []byte {
	good := g.wire.frame(watch.Modified, g.wire.object(body))
	if g.rng.Intn(2) == 0 {
		return good[:1+g.rng.Intn(len(good)-2)]
	}
	if g.wire.protobuf {
		return g.wire.frame(watch.Modified, g.wire.object(append(bytes.Clone(body), 0x0f)))
	}
	at := 1 + g.rng.Intn(len(good)-3)
	return append(append(append([]byte{}, good[:at]...), 0x01), good[at:]...)
}

// corruptPage returns a list page the client cannot decode.
func (g *docGen) corruptPage(page []byte) []byte {
	if g.rng.Intn(2) == 0 || g.wire.protobuf {
		// Not in the last bytes: a protobuf envelope ends with optional
		// fields, without which it is still whole.
		return page[:4+g.rng.Intn(len(page)-16)]
	}
	at := 1 + g.rng.Intn(len(page)-3)
	return append(append(append([]byte{}, page[:at]...), 0x01), page[at:]...)
}

// isolationSizes: documents listed per epoch, events per epoch, epochs.
func isolationSizes() (listed, events, epochs int) {
	if *long {
		return 200, 600, 6
	}
	return 15, 25, 2
}

// TestCrossObjectIsolation sends a long random sequence of documents
// through each informer (lists, watch events, relists): valid pods, keys
// and fields given twice at every level, truncated and corrupted frames
// and pages. After every event its handler receives, every object handed
// out before is checked against a DeepCopy taken when it was first handed
// out: no document may change another object. A corrupted input must be
// an error the informer recovers from (relisting), never a panic.
// -cachesafety.seed replays a sequence.
func TestCrossObjectIsolation(t *testing.T) {
	seed := *seedFlag
	if seed == 0 {
		seed = time.Now().UnixNano()
	}
	t.Logf("seed %d (replay with -cachesafety.seed=%d)", seed, seed)
	for _, v := range []variant{
		{client: typed},
		{client: typed, protobuf: true},
		{client: typed, transform: true},
		{client: typed, protobuf: true, transform: true},
		{client: dynamicClient},
		{client: metadataClient, protobuf: true},
		{client: metadataClient},
	} {
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			testIsolation(t, v, seed)
		})
	}
}

func testIsolation(t *testing.T, v variant, seed int64) {
	listed, events, epochs := isolationSizes()
	g := &docGen{rng: rand.New(rand.NewSource(seed)), wire: v.wire(), rv: 100}
	var eps []*epoch
	for e := range epochs {
		ep := &epoch{}
		for range listed {
			i := -1
			if len(g.names) > 0 && g.rng.Intn(2) == 0 {
				i = g.names[g.rng.Intn(len(g.names))]
			}
			body, _ := g.next(i)
			ep.items = append(ep.items, g.wire.item(body))
		}
		ep.rv = g.rv
		if e > 0 && e%2 == 0 {
			ep.badPage = g.corruptPage
		}
		for range events {
			i := -1
			typ := watch.Added
			if g.rng.Intn(4) > 0 {
				i, typ = g.names[g.rng.Intn(len(g.names))], watch.Modified
			}
			body, rv := g.next(i)
			ep.events = append(ep.events, frame{rv: rv, bytes: g.wire.frame(typ, g.wire.object(body))})
		}
		if e < epochs-1 {
			body, _ := g.next(-1)
			ep.tail = g.corruptFrame(body)
			if g.rng.Intn(3) == 0 {
				ep.tail = g.wire.expired(g.rv)
			}
		}
		eps = append(eps, ep)
	}
	// The last event: a valid new pod, whose arrival ends the test.
	g.rng = rand.New(rand.NewSource(0))
	g.pods++
	g.rv++
	final := g.rv
	last := g.wire.body(fixturePod(g.pods+1000, 10, 3, final, 0, 0))
	eps[len(eps)-1].events = append(eps[len(eps)-1].events, frame{rv: final, bytes: g.wire.frame(watch.Added, g.wire.object(last))})
	t.Logf("%s: %d documents by kind %v", v, g.rv-100, g.kinds)

	srv := newAPIServer(t, g.wire, 25, eps)
	r := newRig(t, v, srv.srv.URL)
	c := &isolationCheck{t: t, handedOut: map[runtime.Object]bool{}}
	done := make(chan struct{})
	var once sync.Once
	if _, err := r.informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			c.handOut(obj, "add")
			if resourceVersion(obj) == final {
				once.Do(func() { close(done) })
			}
		},
		UpdateFunc: func(old, obj interface{}) { c.handOut(obj, "update") },
		DeleteFunc: func(obj interface{}) { c.handOut(nil, "delete") },
	}); err != nil {
		t.Fatal(err)
	}
	stop := r.run()
	defer stop()
	waitClosed(t, done, map[bool]time.Duration{false: time.Minute, true: 10 * time.Minute}[*long], func() string {
		lists, watches := srv.stats()
		return fmt.Sprintf("the informer never received the last event (%d LIST, %d WATCH requests)", lists, watches)
	})
	stop()
	c.check("the end")
	lists, watches := srv.stats()
	t.Logf("%s: %d objects handed out, %d LIST and %d WATCH requests", v, len(c.objs), lists, watches)
}

// isolationCheck keeps each object the handler was handed with a DeepCopy
// taken then, and compares them after every event: all of them while
// they are at most fullCheck; beyond, the last recentCheck handed out and
// a rotating 1/strideCheck of the others (each is compared at least
// every strideCheck events; a change persists, so none goes unseen), and
// all of them at the end. Its methods run on the handler's goroutine.
type isolationCheck struct {
	t         *testing.T
	events    int
	handedOut map[runtime.Object]bool
	objs      []runtime.Object
	snaps     []runtime.Object
	what      []string
	failed    bool
}

const (
	fullCheck   = 400
	recentCheck = 200
	strideCheck = 16
)

func (c *isolationCheck) handOut(obj interface{}, how string) {
	c.events++
	label := fmt.Sprintf("%s #%d", how, c.events)
	if o, ok := obj.(runtime.Object); ok && !c.handedOut[o] {
		c.handedOut[o] = true
		c.objs = append(c.objs, o)
		c.snaps = append(c.snaps, o.DeepCopyObject())
		c.what = append(c.what, label)
	}
	if len(c.objs) <= fullCheck {
		c.checkRange("event "+label, 0, len(c.objs), 1)
		return
	}
	old := len(c.objs) - recentCheck
	c.checkRange("event "+label, old, len(c.objs), 1)
	c.checkRange("event "+label, c.events%strideCheck, old, strideCheck)
}

// check compares every object handed out with its snapshot.
func (c *isolationCheck) check(after string) {
	c.checkRange(after, 0, len(c.objs), 1)
}

func (c *isolationCheck) checkRange(after string, from, to, step int) {
	if c.failed {
		return
	}
	for i := from; i < to; i += step {
		if o := c.objs[i]; !reflect.DeepEqual(o, c.snaps[i]) {
			c.failed = true
			c.t.Errorf("after %s, the object handed out at %s changed: %s", after, c.what[i], difference(variant{}, o, c.snaps[i]))
			return
		}
	}
}
