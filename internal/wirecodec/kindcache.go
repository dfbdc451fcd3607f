package wirecodec

import (
	"sync/atomic"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// kindCache remembers the apiVersion and kind last read from a document
// with the group version parsed from it, so that a stream of objects of
// one kind does not allocate and parse them again for every object. It is
// safe for concurrent use; a miss only costs the allocation it would save.
type kindCache struct {
	last atomic.Pointer[cachedKind]
}

type cachedKind struct {
	apiVersion, kind string
	gv               schema.GroupVersion
	gvOK             bool // whether apiVersion parsed
}

// lookup returns the group version parsed from apiVersion (gvOK false when
// it does not parse) and kind as a string.
func (c *kindCache) lookup(apiVersion, kind []byte) (gv schema.GroupVersion, gvOK bool, kindString string) {
	if last := c.last.Load(); last != nil && string(apiVersion) == last.apiVersion && string(kind) == last.kind {
		return last.gv, last.gvOK, last.kind
	}
	entry := &cachedKind{apiVersion: string(apiVersion), kind: string(kind)}
	var err error
	entry.gv, err = schema.ParseGroupVersion(entry.apiVersion)
	entry.gvOK = err == nil
	if !entry.gvOK {
		entry.gv = schema.GroupVersion{}
	}
	c.last.Store(entry)
	return entry.gv, entry.gvOK, entry.kind
}
