package wirecodec

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

// decodeWatchEvent decodes the JSON frame of a watch stream into event as
// the reference does when the frame is an object with at most one "type"
// member (a plain string or null), at most one "object" member, no member
// that encoding/json could take for apiVersion or kind, and no escaped or
// non-ASCII member name. It reports false, leaving event untouched, for
// any other frame, malformed ones included.
//
// Members the reference ignores are checked for syntax and skipped. A null
// type or object leaves the field as it was; any other object value is
// copied into event.Object.Raw the way runtime.RawExtension's UnmarshalJSON
// copies it, reusing the slice's storage.
func decodeWatchEvent(frame []byte, event *metav1.WatchEvent) bool {
	var eventType, object []byte
	var sawType, sawObject bool
	plain := true
	end, st := ScanObject(frame, 0, func(m Member) {
		switch {
		case m.Flags != 0 || ASCIIEqualFold(m.Name, "apiversion") || ASCIIEqualFold(m.Name, "kind"):
			plain = false
		case string(m.Name) == "type":
			if sawType {
				plain = false
			}
			sawType = true
			switch {
			case string(m.Value) == "null":
			case m.Value[0] == '"' && plainString(m.Value):
				eventType = m.Value[1 : len(m.Value)-1]
			default:
				plain = false
			}
		case string(m.Name) == "object":
			if sawObject {
				plain = false
			}
			sawObject = true
			if string(m.Value) != "null" {
				object = m.Value
			}
		}
	})
	if !plain || st != Complete || skipSpace(frame, end) != len(frame) {
		return false
	}
	if eventType != nil {
		event.Type = eventTypeString(eventType)
	}
	if object != nil {
		event.Object.Raw = append(event.Object.Raw[:0], object...)
	}
	return true
}

// eventTypeString returns b as a string, without allocating for the event
// types servers send.
func eventTypeString(b []byte) string {
	for _, t := range [...]watch.EventType{watch.Added, watch.Modified, watch.Deleted, watch.Bookmark, watch.Error} {
		if string(b) == string(t) {
			return string(t)
		}
	}
	return string(b)
}
