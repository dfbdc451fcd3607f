package cache

import (
	"os"
	"strconv"

	"github.com/kubeclient/client-go/internal/intern"
)

// Objects entering an informer's cache share what repeats across them:
// the pods of one ReplicaSet differ in a few names and addresses and are
// otherwise the same. Sharing happens as a delta is applied to the cache,
// after the informer's transform, and rewrites the object in place; it
// stays reflect.DeepEqual to what was decoded.
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
	if obj != nil && cacheSharer != nil {
		cacheSharer.Share(obj)
	}
}
