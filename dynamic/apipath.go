package dynamic

import "k8s.io/apimachinery/pkg/runtime/schema"

// APIPathResolverFunc maps a kind to the API root its group is served
// under, such as "/api" or "/apis". Only the group of kind matters to the
// resolvers of this package.
type APIPathResolverFunc func(kind schema.GroupVersionKind) string

// LegacyAPIPathResolverFunc resolves the core ("legacy") group, whose group
// name is empty, to "/api" and every named group to "/apis".
func LegacyAPIPathResolverFunc(kind schema.GroupVersionKind) string {
	if kind.Group == "" {
		return "/api"
	}
	return "/apis"
}
