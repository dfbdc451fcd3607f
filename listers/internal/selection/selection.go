// Package selection finds, among controller objects, those whose label
// selector selects a given set of labels. The hand-written lister
// expansions (GetPodReplicaSets, GetPodPodDisruptionBudgets, ...) use it.
package selection

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// EmptySelector says what a selector without requirements selects.
type EmptySelector bool

const (
	// EmptySelectsNothing makes an empty or nil selector match no labels,
	// the rule of workload controllers.
	EmptySelectsNothing EmptySelector = false
	// EmptySelectsEverything makes an empty (non-nil) selector match every
	// set of labels, the rule of policy/v1 PodDisruptionBudgets. A nil
	// selector still matches nothing.
	EmptySelectsEverything EmptySelector = true
)

// Selecting returns the objects of objs whose selector, as returned by
// selectorOf, selects set. Objects with an invalid selector are skipped.
func Selecting[T any](objs []T, selectorOf func(T) *metav1.LabelSelector, set map[string]string, empty EmptySelector) []T {
	var out []T
	for _, obj := range objs {
		ls := selectorOf(obj)
		if ls == nil {
			continue
		}
		selector, err := metav1.LabelSelectorAsSelector(ls)
		if err != nil {
			continue
		}
		if selector.Empty() && empty == EmptySelectsNothing {
			continue
		}
		if selector.Matches(labels.Set(set)) {
			out = append(out, obj)
		}
	}
	return out
}

// SelectingMap is Selecting for equality-based selectors written as maps,
// as ReplicationControllers have. An empty map selects nothing.
func SelectingMap[T any](objs []T, selectorOf func(T) map[string]string, set map[string]string) []T {
	var out []T
	for _, obj := range objs {
		sel := selectorOf(obj)
		if len(sel) == 0 {
			continue
		}
		if labels.SelectorFromValidatedSet(labels.Set(sel)).Matches(labels.Set(set)) {
			out = append(out, obj)
		}
	}
	return out
}
