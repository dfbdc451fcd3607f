package cache

import "errors"

// DeltaType says what kind of change a Delta records.
type DeltaType string

// The kinds of change.
const (
	Added   DeltaType = "Added"
	Updated DeltaType = "Updated"
	Deleted DeltaType = "Deleted"
	// Replaced is emitted for every object of a relist (or the initial
	// list) when the queue was built with EmitDeltaTypeReplaced; the object
	// may or may not have changed. Without that option Sync is used.
	Replaced DeltaType = "Replaced"
	// ReplacedAll is emitted instead of per-object Replaced deltas by
	// queues that replace atomically; its object is a ReplacedAllInfo.
	ReplacedAll DeltaType = "ReplacedAll"
	// Sync is for synthetic events of a periodic resync.
	Sync DeltaType = "Sync"
	// SyncAll asks the consumer to resync everything it knows; its object
	// is a SyncAllInfo.
	SyncAll DeltaType = "SyncAll"
	// Bookmark passes a resource version to the consumer; its object is a
	// BookmarkInfo.
	Bookmark DeltaType = "Bookmark"
)

// Delta is one change to one object: its type and the object's state after
// the change (for deletions, the last state before it).
type Delta struct {
	Type   DeltaType
	Object interface{}
}

// Deltas lists the changes of one object, oldest first.
type Deltas []Delta

// Oldest returns the first delta, or nil.
func (d Deltas) Oldest() *Delta { return d.at(0) }

// Newest returns the last delta, or nil.
func (d Deltas) Newest() *Delta { return d.at(len(d) - 1) }

// at returns the delta at index i, or nil when there is none.
func (d Deltas) at(i int) *Delta {
	if i < 0 || i >= len(d) {
		return nil
	}
	return &d[i]
}

// BookmarkInfo is the object of a Bookmark delta.
type BookmarkInfo struct {
	// ResourceVersion is the version given to the Bookmark call.
	ResourceVersion string
}

// ReplacedAllInfo is the object of a ReplacedAll delta.
type ReplacedAllInfo struct {
	// ResourceVersion is the version given to the Replace call.
	ResourceVersion string
	// Objects is the list given to the Replace call, already transformed
	// when the queue has a transform.
	Objects []interface{}
}

// SyncAllInfo is the object of a SyncAll delta.
type SyncAllInfo struct{}

// ErrZeroLengthDeltasObject is wrapped in a KeyError when the key of an
// empty Deltas is asked for; queues never produce one.
var ErrZeroLengthDeltasObject = errors.New("0 length Deltas object; can't get key")
