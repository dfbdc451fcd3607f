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

// GetFieldSelector returns the field selector that picks the events about
// one object in the given events API version. Empty arguments are left
// unconstrained.
func GetFieldSelector(eventsGroupVersion schema.GroupVersion, regardingGroupVersionKind schema.GroupVersionKind, regardingName string, regardingUID types.UID) (fields.Selector, error) {
	prefix, ok := regardingField[eventsGroupVersion]
	if !ok {
		return nil, fmt.Errorf("unknown version %v", eventsGroupVersion)
	}
	set := fields.Set{}
	for _, constraint := range []struct{ field, value string }{
		{"name", regardingName},
		{"kind", regardingGroupVersionKind.Kind},
		{"apiVersion", regardingGroupVersionKind.GroupVersion().String()}, // "" when empty
		{"uid", string(regardingUID)},
	} {
		if constraint.value != "" {
			set[prefix+"."+constraint.field] = constraint.value
		}
	}
	return set.AsSelector(), nil
}

// regardingField is the name of the "object this event is about" field in
// each events API version.
var regardingField = map[schema.GroupVersion]string{
	eventsv1.SchemeGroupVersion:      "regarding",
	eventsv1beta1.SchemeGroupVersion: "regarding",
	corev1.SchemeGroupVersion:        "involvedObject",
}
