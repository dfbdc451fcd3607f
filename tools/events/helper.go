package events

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	eventsv1beta1 "k8s.io/api/events/v1beta1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// regardingField is the name of the "object this event is about" field in
// each events API version.
var regardingField = map[schema.GroupVersion]string{
	eventsv1.SchemeGroupVersion:      "regarding",
	eventsv1beta1.SchemeGroupVersion: "regarding",
	corev1.SchemeGroupVersion:        "involvedObject",
}

// GetFieldSelector returns the field selector that picks the events about
// one object in the given events API version. Empty arguments are left
// unconstrained.
func GetFieldSelector(eventsGroupVersion schema.GroupVersion, regardingGroupVersionKind schema.GroupVersionKind, regardingName string, regardingUID types.UID) (fields.Selector, error) {
	prefix, ok := regardingField[eventsGroupVersion]
	if !ok {
		return nil, fmt.Errorf("unknown version %v", eventsGroupVersion)
	}
	set := fields.Set{}
	if regardingName != "" {
		set[prefix+".name"] = regardingName
	}
	if regardingGroupVersionKind.Kind != "" {
		set[prefix+".kind"] = regardingGroupVersionKind.Kind
	}
	if gv := regardingGroupVersionKind.GroupVersion(); !gv.Empty() {
		set[prefix+".apiVersion"] = gv.String()
	}
	if regardingUID != "" {
		set[prefix+".uid"] = string(regardingUID)
	}
	return set.AsSelector(), nil
}
