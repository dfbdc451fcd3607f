package discovery

import (
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ResourcePredicate decides whether a resource of a group-version matches.
type ResourcePredicate interface {
	Match(groupVersion string, r *metav1.APIResource) bool
}

// ResourcePredicateFunc is a function usable as a ResourcePredicate.
type ResourcePredicateFunc func(groupVersion string, r *metav1.APIResource) bool

// Match calls fn.
func (fn ResourcePredicateFunc) Match(groupVersion string, r *metav1.APIResource) bool {
	return fn(groupVersion, r)
}

// FilteredBy returns copies of rls holding only the resources pred matches.
// Lists left without resources are dropped. rls is not modified.
func FilteredBy(pred ResourcePredicate, rls []*metav1.APIResourceList) []*metav1.APIResourceList {
	kept := make([]*metav1.APIResourceList, 0, len(rls))
	for _, rl := range rls {
		if matching := matchingResources(pred, rl); len(matching) > 0 {
			filtered := *rl
			filtered.APIResources = matching
			kept = append(kept, &filtered)
		}
	}
	return kept
}

// matchingResources returns the resources of rl that pred matches.
func matchingResources(pred ResourcePredicate, rl *metav1.APIResourceList) []metav1.APIResource {
	var matching []metav1.APIResource
	for i := range rl.APIResources {
		if pred.Match(rl.GroupVersion, &rl.APIResources[i]) {
			matching = append(matching, rl.APIResources[i])
		}
	}
	return matching
}

// GroupVersionResources returns the set of group-version-resources listed in
// rls. A list whose GroupVersion does not parse is an error.
func GroupVersionResources(rls []*metav1.APIResourceList) (map[schema.GroupVersionResource]struct{}, error) {
	set := map[schema.GroupVersionResource]struct{}{}
	for _, rl := range rls {
		gv, err := schema.ParseGroupVersion(rl.GroupVersion)
		if err != nil {
			return nil, err
		}
		for _, r := range rl.APIResources {
			set[gv.WithResource(r.Name)] = struct{}{}
		}
	}
	return set, nil
}

// SupportsAllVerbs matches resources supporting every one of Verbs.
type SupportsAllVerbs struct {
	Verbs []string
}

// Match reports whether r supports all of p.Verbs.
func (p SupportsAllVerbs) Match(groupVersion string, r *metav1.APIResource) bool {
	unsupported := func(verb string) bool { return !slices.Contains(r.Verbs, verb) }
	return !slices.ContainsFunc(p.Verbs, unsupported)
}
