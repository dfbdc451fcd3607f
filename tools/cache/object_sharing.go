package cache

import (
	"context"
	"sync"

	"github.com/kubeclient/client-go/internal/fastpath"
	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/listitems"
	"github.com/kubeclient/client-go/internal/wirecodec"
)

// Objects entering an informer's cache share what repeats across them:
// the pods of one ReplicaSet differ in a few names and addresses and are
// otherwise the same. Strings are interned (they are immutable, so
// sharing them is invisible); equal label and annotation maps, managed-
// fields sets, resource lists, the managed-fields trees of unstructured
// objects and, for protobuf, equal specs are one value held by all.
//
// Nothing published is written again. Sharing is decided before an object
// is published (stored, handed to a handler), in one of two places, and
// never by rewriting an object:
//
//   - An informer without a transform marks the context of its list and
//     watch requests: this library's decoders then decode each object
//     sharing as they read (see intern.DecodeSharing), picking a table's
//     value or building a private one, and report that they did
//     (wirecodec.SharedDecodes). Such objects are published as decoded.
//   - Otherwise (a transform, which may write into what it is given; a
//     ListerWatcher that does not pass the context to this library's REST
//     client; a serializer the client does not know) the informer
//     publishes, in place of each object entering its cache, a copy of it
//     that shares with the tables (intern.Sharer.Copy). The object itself
//     is not written: it may be its maker's.
//
// Published objects are read-only, as every informer requires: listers and
// handlers receive the cached objects themselves, and a caller writing into
// one would change the objects sharing its maps. DeepCopy gives a private
// copy that shares nothing but strings; the cache mutation detector
// (KUBE_CACHE_MUTATION_DETECTOR=true) reports such writes.
//
// KUBECLIENT_CACHE_DEDUP=false (fastpath.CacheDedup) turns sharing off:
// objects are published as received, as client-go does. Secrets are never
// shared (see intern.IsSecret). The tables are process-wide, bounded and
// safe for concurrent informers (see package intern).

// cacheSharer makes the shared copies of every informer.
var cacheSharer = newCacheSharer()

// newCacheSharer returns the Sharer of informer caches: the process-wide
// tables, strings included unless interning is off (fastpath.Interning).
func newCacheSharer() *intern.Sharer {
	s := intern.NewSharer(true)
	if !fastpath.Interning.On() {
		s.Strings, s.Boxed = nil, nil
	}
	return s
}

// cacheDecoding is the decoding side of cacheSharer's tables.
var cacheDecoding = intern.NewDecodeSharing(cacheSharer.Fields)

// cacheSharing is how one informer shares the objects entering its cache.
// A nil *cacheSharing shares nothing. Its methods are safe for concurrent
// use: the reflector marks requests while the processing goroutine
// publishes.
type cacheSharing struct {
	// sharer makes the shared copies.
	sharer *intern.Sharer
	// decode, when not nil (no transform), marks the reflector's list and
	// watch requests for decoding with sharing.
	decode *intern.DecodeSharing
	// decoded learns whether the marked requests were decoded sharing.
	decoded wirecodec.SharedDecodes
}

// newCacheSharing returns the sharing of an informer with the given
// transform, or nil when sharing is off (fastpath.CacheDedup).
func newCacheSharing(transform TransformFunc) *cacheSharing {
	if !fastpath.CacheDedup.On() {
		return nil
	}
	s := &cacheSharing{sharer: cacheSharer}
	if transform == nil {
		s.decode = cacheDecoding
	}
	return s
}

// requestContext returns the context of a list or watch request of the
// reflector: marked for decoding with sharing when it may.
func (s *cacheSharing) requestContext(ctx context.Context) context.Context {
	if s == nil || s.decode == nil {
		return ctx
	}
	return wirecodec.WithSharedDecodes(wirecodec.WithCacheDecoding(ctx, s.decode), &s.decoded)
}

// listItems returns where the decoders of one list call record the
// allocations of the items they decode sharing, for the reflector to keep
// them instead of copies (see package listitems); nil, recording nothing,
// when the requests are not marked for decoding with sharing.
func (s *cacheSharing) listItems() *listitems.Recorder {
	if s == nil || s.decode == nil {
		return nil
	}
	return new(listitems.Recorder)
}

// publish returns the object to store and hand to handlers in place of
// obj, which is about to enter the cache: obj itself when its decoder
// shared it already, else a shared copy of it. obj is not written.
func (s *cacheSharing) publish(obj interface{}) interface{} {
	if s == nil || obj == nil || s.decoded.Seen() {
		return obj
	}
	return s.sharer.Copy(obj)
}

// running counts the informers running with sharing.
var running struct {
	sync.Mutex
	n int
}

// run counts the informer of s as running until stopped is called. When
// the last running informer stops, the tables are emptied, so that they
// keep no value alive for informers that are gone (the cached objects
// holding the values keep them).
func (s *cacheSharing) run() (stopped func()) {
	if s == nil {
		return func() {}
	}
	running.Lock()
	running.n++
	running.Unlock()
	return func() {
		running.Lock()
		defer running.Unlock()
		if running.n--; running.n == 0 {
			cacheSharer.Clear()
			cacheDecoding.Clear()
		}
	}
}
