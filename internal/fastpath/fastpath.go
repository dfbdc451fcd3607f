package fastpath

import (
	"os"
	"strconv"
	"sync/atomic"
)

// AllEnv names the environment variable that, set to false, turns every
// fast path off.
const AllEnv = "KUBECLIENT_FAST_PATHS"

// Switch is one fast path's on/off state. It is read on hot paths, so it
// is a single atomic load.
type Switch struct {
	// Env is the environment variable that turns the path off when it
	// reads false (strconv.ParseBool).
	Env string
	on  atomic.Bool
}

// On reports whether the fast path is on.
func (s *Switch) On() bool { return s.on.Load() }

// Set turns the path on or off and returns a function restoring the
// previous state. It is meant for tests; paths that fixed their
// behaviour when they were set up (a queue made earlier) keep it.
func (s *Switch) Set(on bool) (restore func()) {
	prev := s.on.Swap(on)
	return func() { s.on.Store(prev) }
}

// newSwitch returns the switch read from env and from AllEnv: only an
// explicit false turns a path off.
func newSwitch(env string, lookup func(string) string) *Switch {
	s := &Switch{Env: env}
	s.on.Store(!isFalse(lookup(AllEnv)) && !isFalse(lookup(env)))
	return s
}

func isFalse(v string) bool {
	b, err := strconv.ParseBool(v)
	return err == nil && !b
}

// The fast paths. README.md ("Fast paths and their switches") lists them
// with what each changes.
var (
	// GeneratedDecoders: JSON and protobuf bodies of built-in types, and
	// JSON bodies of types whose decoders cmd/codegen -decoders generated
	// (registered with pkg/decoders), are decoded by this library's
	// generated decoders instead of apimachinery's serializers.
	GeneratedDecoders = newSwitch("KUBECLIENT_GENERATED_DECODERS", os.Getenv)
	// Interning: decoders and informer caches keep one copy of strings
	// that repeat across objects.
	Interning = newSwitch("KUBECLIENT_INTERN", os.Getenv)
	// CacheDedup: objects in an informer's cache share equal label and
	// annotation maps, managed-fields sets, resource lists and specs.
	CacheDedup = newSwitch("KUBECLIENT_CACHE_DEDUP", os.Getenv)
	// BodyPool: response bodies are read into pooled buffers sized from
	// hints, returned once decoded.
	BodyPool = newSwitch("KUBECLIENT_BODY_POOL", os.Getenv)
	// DecodeSlabs: the generated protobuf decoders take the strings that
	// are not interned and the targets of optional scalars and times of
	// one decode from a few larger allocations.
	DecodeSlabs = newSwitch("KUBECLIENT_DECODE_SLABS", os.Getenv)
)

// All returns every switch, for documentation and tests.
func All() []*Switch {
	return []*Switch{GeneratedDecoders, Interning, CacheDedup, BodyPool, DecodeSlabs}
}
