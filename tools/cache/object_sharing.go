package cache

import (
	"context"
	"os"
	"strconv"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/wirecodec"
)

// Objects entering an informer's cache share what repeats across them:
// the pods of one ReplicaSet differ in a few names and addresses and are
// otherwise the same. Sharing rewrites the object in place; it stays
// reflect.DeepEqual to what was decoded. Watch events are shared as their
// delta is applied to the cache, after the informer's transform. The
// objects of a list or relist (and of a watch-list's initial events) are
// shared earlier, as each page or event arrives in the informer's
// reflector, so that a list of thousands of objects is not held unshared
// until its last page: fully when the informer has no transform, and
// then not again as they enter the cache; only their strings when it has
// one (a transform may write into what it is given), the rest as they
// enter the cache.
//
// Strings are always interned: they are immutable, so sharing them is
// invisible. Unless KUBECLIENT_CACHE_DEDUP is false, identical byte slices
// (the FieldsV1 sets of managed fields), resource lists (container limits
// and requests) and the fieldsV1 maps of unstructured objects are shared
// too. That relies on cached objects being
// read-only, as every informer requires (listers and handlers receive the
// cached objects themselves): a caller writing into a cached object's
// FieldsV1 bytes or resource list would change the other objects sharing
// them. The cache mutation detector (KUBE_CACHE_MUTATION_DETECTOR=true)
// reports such writes, and DeepCopy gives a private copy that shares
// nothing but strings. Objects are shared in place: one handed to an
// informer (by a fake ListerWatcher, say) must not be read concurrently
// by its maker while the informer caches it.
//
// An informer without a transform also marks the context of its list and
// watch requests (listSharing.requestContext): this library's protobuf
// decoders then decode equal FieldsV1 sets and resource lists to the
// shared copies directly, instead of a private copy the sharing would
// replace right away, and remember the objects they decoded so (see
// intern.DecodeSharing.Decoded), which are not walked again here.
//
// The tables behind the sharing are global, fixed in size and safe for
// concurrent informers (see package intern).

// cacheDedupEnv names the environment variable that, set to false, keeps
// byte slices and maps of cached objects unshared.
const cacheDedupEnv = "KUBECLIENT_CACHE_DEDUP"

// cacheSharer shares the objects of every informer; nil (in benchmarks)
// shares nothing.
var cacheSharer = newCacheSharer(os.Getenv(cacheDedupEnv))

// newCacheSharer returns the Sharer for the value of cacheDedupEnv: only
// an explicit false turns dedup off.
func newCacheSharer(dedup string) *intern.Sharer {
	on, err := strconv.ParseBool(dedup)
	return intern.NewSharer(err != nil || on)
}

// shareCached makes obj, about to enter an informer's cache, share what
// it has in common with the objects cached before it.
func shareCached(obj interface{}) {
	if obj != nil && cacheSharer != nil && !decodedSharing(obj) {
		cacheSharer.Share(obj)
	}
}

// decodedSharing reports whether obj was decoded with cacheDecoding, so
// that it shares all that cacheSharer would make it share already.
func decodedSharing(obj interface{}) bool {
	return cacheDecoding != nil && cacheDecoding.Decoded(obj)
}

// stringSharer shares only strings, which is safe before a transform.
var stringSharer = intern.NewSharer(false)

// listSharing says how an informer shares the objects of its lists as they
// arrive in its reflector, before the transform.
type listSharing struct {
	// sharer shares listed objects on arrival; nil shares nothing.
	sharer *intern.Sharer
	// complete: sharer did all that entering the cache would, so the
	// Replaced deltas of a list need not be shared again.
	complete bool
	// decode, when not nil, lets the decoders of the reflector's list and
	// watch requests share managed-fields sets and resource lists as they
	// decode (see wirecodec.WithCacheDecoding): only when the objects go
	// into the cache as decoded, with no transform.
	decode *intern.DecodeSharing
}

// cacheDecoding is the decoding side of cacheSharer's tables; nil when
// it shares only strings.
var cacheDecoding = newCacheDecoding(cacheSharer)

func newCacheDecoding(s *intern.Sharer) *intern.DecodeSharing {
	if s == nil || s.Fields == nil {
		return nil
	}
	return intern.NewDecodeSharing(s.Fields)
}

// requestContext returns the context of a list or watch request of the
// reflector: marked for decoding with sharing when it may.
func (s listSharing) requestContext(ctx context.Context) context.Context {
	return wirecodec.WithCacheDecoding(ctx, s.decode)
}

// newListSharing returns the list sharing of an informer with the given
// transform.
func newListSharing(transform TransformFunc) listSharing {
	switch {
	case cacheSharer == nil:
		return listSharing{}
	case transform == nil:
		return listSharing{sharer: cacheSharer, complete: true, decode: cacheDecoding}
	}
	return listSharing{sharer: stringSharer}
}

// shareListed shares the items of one page of a list.
func shareListed(s *intern.Sharer, page runtime.Object) {
	if s == nil || (s == cacheSharer && decodedSharing(page)) {
		return
	}
	// A page that is not a list is the pager's error to report.
	_ = meta.EachListItem(page, func(item runtime.Object) error {
		s.Share(item)
		return nil
	})
}
