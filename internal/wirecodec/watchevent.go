package wirecodec

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/internal/jsondecode/lex"
)

// decodeWatchEvent decodes the JSON frame of a watch stream, validated and
// indexed in l, into event as the reference does when the frame is an
// object with at most one "type" member (a plain string or null), at most
// one "object" member, no member that encoding/json could take for
// apiVersion or kind, and no escaped or non-ASCII member name. It reports
// false, leaving event untouched, for any other frame.
//
// Members the reference ignores are skipped through the index. A null type
// or object leaves the field as it was; any other object value is copied
// into event.Object.Raw the way runtime.RawExtension's UnmarshalJSON copies
// it, reusing the slice's storage; with remember, the object's index is
// left for the decoder that decodes event.Object.Raw next (eventobject.go).
func decodeWatchEvent(l *lex.Lexer, event *metav1.WatchEvent, remember bool) bool {
	l.Rewind()
	if l.Next() != '{' {
		return false
	}
	l.OpenObject()
	var eventType, object []byte
	var objectStart int
	var sawType, sawObject bool
	for {
		name, plain, more := l.Member()
		if !more {
			break
		}
		switch {
		case !plain || lex.ASCIIEqualFold(name, "apiversion") || lex.ASCIIEqualFold(name, "kind"):
			return false
		case string(name) == "type":
			if sawType {
				return false
			}
			sawType = true
			switch value := l.Raw(); {
			case string(value) == "null":
			case value[0] == '"' && lex.ASCIIPlain(value[1:len(value)-1]):
				eventType = value[1 : len(value)-1]
			default:
				return false
			}
		case string(name) == "object":
			if sawObject {
				return false
			}
			sawObject = true
			if value := l.Raw(); string(value) != "null" {
				object, objectStart = value, l.Offset()-len(value)
			}
		default:
			l.Skip()
		}
	}
	if eventType != nil {
		event.Type = eventTypeString(eventType)
	}
	if object != nil {
		event.Object.Raw = append(event.Object.Raw[:0], object...)
		if remember {
			rememberEventObject(event.Object.Raw, l.Extract(objectStart, objectStart+len(object), event.Object.Raw))
		}
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
