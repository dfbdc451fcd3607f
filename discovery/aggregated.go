package discovery

import (
	"fmt"
	"mime"

	apidiscovery "k8s.io/api/apidiscovery/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// aggregatedListGVK identifies an aggregated discovery response by the
// parameters of its Content-Type.
var aggregatedListGVK = schema.GroupVersionKind{Group: "apidiscovery.k8s.io", Version: "v2", Kind: "APIGroupDiscoveryList"}

// ContentTypeIsGVK reports whether contentType is application/json with the
// g, v and as parameters naming gvk. Parameter order and extra parameters
// (a charset, say) do not matter. A malformed contentType is an error.
func ContentTypeIsGVK(contentType string, gvk schema.GroupVersionKind) (bool, error) {
	mediaType, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false, err
	}
	return mediaType == runtime.ContentTypeJSON &&
		params["g"] == gvk.Group &&
		params["v"] == gvk.Version &&
		params["as"] == gvk.Kind, nil
}

// StaleGroupVersionError reports a group-version that aggregated discovery
// marked stale: its serving apiserver did not answer recently enough.
type StaleGroupVersionError struct {
	gv schema.GroupVersion
}

// Error implements error.
func (e StaleGroupVersionError) Error() string {
	return fmt.Sprintf("stale GroupVersion discovery: %v", e.gv)
}

// SplitGroupsAndResources converts an aggregated discovery document into the
// legacy shapes: the group list, the resources of each group-version, and a
// StaleGroupVersionError for each group-version marked stale (those are left
// out of the group list and resources). The first non-stale version listed
// for a group becomes its preferred version.
func SplitGroupsAndResources(aggregatedGroups apidiscovery.APIGroupDiscoveryList) (
	*metav1.APIGroupList,
	map[schema.GroupVersion]*metav1.APIResourceList,
	map[schema.GroupVersion]error) {
	groups := &metav1.APIGroupList{Groups: make([]metav1.APIGroup, 0, len(aggregatedGroups.Items))}
	resources := map[schema.GroupVersion]*metav1.APIResourceList{}
	failed := map[schema.GroupVersion]error{}
	for i := range aggregatedGroups.Items {
		groups.Groups = append(groups.Groups, splitGroup(&aggregatedGroups.Items[i], resources, failed))
	}
	return groups, resources, failed
}

// splitGroup converts one aggregated group, adding the resources of each
// fresh version to resources and each stale version to failed.
func splitGroup(in *apidiscovery.APIGroupDiscovery, resources map[schema.GroupVersion]*metav1.APIResourceList, failed map[schema.GroupVersion]error) metav1.APIGroup {
	out := metav1.APIGroup{Name: in.Name}
	for _, v := range in.Versions {
		gv := schema.GroupVersion{Group: in.Name, Version: v.Version}
		if v.Freshness == apidiscovery.DiscoveryFreshnessStale {
			failed[gv] = StaleGroupVersionError{gv: gv}
			continue
		}
		listed := metav1.GroupVersionForDiscovery{GroupVersion: gv.String(), Version: v.Version}
		out.Versions = append(out.Versions, listed)
		if out.PreferredVersion == (metav1.GroupVersionForDiscovery{}) {
			out.PreferredVersion = listed
		}
		list := &metav1.APIResourceList{GroupVersion: gv.String()}
		for j := range v.Resources {
			list.APIResources = appendResource(list.APIResources, &v.Resources[j])
		}
		resources[gv] = list
	}
	return out
}

// appendResource appends the legacy form of r and of each of its
// subresources. A resource or subresource without a response kind cannot be
// expressed in the legacy form and is skipped; the subresources of a skipped
// resource are still kept.
func appendResource(out []metav1.APIResource, r *apidiscovery.APIResourceDiscovery) []metav1.APIResource {
	parent := metav1.APIResource{
		Name:         r.Resource,
		SingularName: r.SingularResource,
		Namespaced:   r.Scope == apidiscovery.ScopeNamespace,
		Verbs:        r.Verbs,
		ShortNames:   r.ShortNames,
		Categories:   r.Categories,
	}
	if hasKind(r.ResponseKind) {
		parent.Group = r.ResponseKind.Group
		parent.Version = r.ResponseKind.Version
		parent.Kind = r.ResponseKind.Kind
		out = append(out, parent)
	}
	for _, sub := range r.Subresources {
		if !hasKind(sub.ResponseKind) {
			continue
		}
		out = append(out, metav1.APIResource{
			Name:         parent.Name + "/" + sub.Subresource,
			SingularName: parent.SingularName,
			Namespaced:   parent.Namespaced,
			Group:        sub.ResponseKind.Group,
			Version:      sub.ResponseKind.Version,
			Kind:         sub.ResponseKind.Kind,
			Verbs:        sub.Verbs,
		})
	}
	return out
}

func hasKind(k *metav1.GroupVersionKind) bool {
	return k != nil && *k != (metav1.GroupVersionKind{})
}
