package restmapper

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/discovery"
)

// CategoryExpander maps a category, a tag such as "all" that resources
// declare, to the resources carrying it.
//
// Prefer CategoryExpanderWithContext.
type CategoryExpander interface {
	Expand(category string) ([]schema.GroupResource, bool)
}

// CategoryExpanderWithContext maps a category to the resources carrying it.
type CategoryExpanderWithContext interface {
	ExpandWithContext(ctx context.Context, category string) ([]schema.GroupResource, bool)
}

// ToCategoryExpanderWithContext adapts c; an expander that already
// implements CategoryExpanderWithContext is returned as it is. A nil c
// yields nil.
func ToCategoryExpanderWithContext(c CategoryExpander) CategoryExpanderWithContext {
	switch c := c.(type) {
	case nil:
		return nil
	case CategoryExpanderWithContext:
		return c
	default:
		return categoryExpanderAdapter{legacy: c}
	}
}

// categoryExpanderAdapter drops the context when calling legacy.
type categoryExpanderAdapter struct {
	legacy CategoryExpander
}

func (a categoryExpanderAdapter) ExpandWithContext(_ context.Context, category string) ([]schema.GroupResource, bool) {
	return a.legacy.Expand(category)
}

// SimpleCategoryExpander expands categories from a fixed table.
type SimpleCategoryExpander struct {
	Expansions map[string][]schema.GroupResource
}

// Expand implements CategoryExpander.
func (e SimpleCategoryExpander) Expand(category string) ([]schema.GroupResource, bool) {
	resources, ok := e.Expansions[category]
	return resources, ok
}

// ExpandWithContext implements CategoryExpanderWithContext.
func (e SimpleCategoryExpander) ExpandWithContext(_ context.Context, category string) ([]schema.GroupResource, bool) {
	return e.Expand(category)
}

// discoveryCategoryExpander expands categories from the categories that
// discovered resources declare.
type discoveryCategoryExpander struct {
	discoveryClient discovery.DiscoveryInterfaceWithContext
}

// NewDiscoveryCategoryExpander returns a CategoryExpander reading the
// categories of the resources client discovers. Expand reports false when
// discovery yields nothing or no resource declares the category, so that
// callers can fall back to another expander; with a nil client it always
// does.
//
// Prefer NewDiscoveryCategoryExpanderWithContext.
func NewDiscoveryCategoryExpander(client discovery.DiscoveryInterface) CategoryExpander {
	return discoveryCategoryExpander{discoveryClient: discovery.ToDiscoveryInterfaceWithContext(client)}
}

// NewDiscoveryCategoryExpanderWithContext is NewDiscoveryCategoryExpander
// for a DiscoveryInterfaceWithContext.
func NewDiscoveryCategoryExpanderWithContext(client discovery.DiscoveryInterfaceWithContext) CategoryExpanderWithContext {
	return discoveryCategoryExpander{discoveryClient: client}
}

// Expand implements CategoryExpander.
func (e discoveryCategoryExpander) Expand(category string) ([]schema.GroupResource, bool) {
	return e.ExpandWithContext(context.Background(), category)
}

// ExpandWithContext implements CategoryExpanderWithContext. Discovery
// errors are ignored: whatever could be discovered is used.
func (e discoveryCategoryExpander) ExpandWithContext(ctx context.Context, category string) ([]schema.GroupResource, bool) {
	if e.discoveryClient == nil {
		return nil, false
	}
	_, lists, _ := e.discoveryClient.ServerGroupsAndResourcesWithContext(ctx)
	if len(lists) == 0 {
		return nil, false
	}
	var (
		resources []schema.GroupResource
		found     bool
	)
	for _, list := range lists {
		gv, err := schema.ParseGroupVersion(list.GroupVersion)
		if err != nil {
			continue
		}
		for _, r := range list.APIResources {
			for _, c := range r.Categories {
				if c == category {
					resources = append(resources, schema.GroupResource{Group: gv.Group, Resource: r.Name})
					found = true
				}
			}
		}
	}
	return resources, found
}

// UnionCategoryExpander expands a category with each of its expanders and
// returns the union of their answers, without duplicates, in the order
// first seen. It reports true if any expander did.
//
// Prefer UnionCategoryExpanderWithContext.
type UnionCategoryExpander []CategoryExpander

// Expand implements CategoryExpander.
func (u UnionCategoryExpander) Expand(category string) ([]schema.GroupResource, bool) {
	return union(u, func(e CategoryExpander) ([]schema.GroupResource, bool) { return e.Expand(category) })
}

// UnionCategoryExpanderWithContext is UnionCategoryExpander over
// CategoryExpanderWithContext.
type UnionCategoryExpanderWithContext []CategoryExpanderWithContext

// ExpandWithContext implements CategoryExpanderWithContext.
func (u UnionCategoryExpanderWithContext) ExpandWithContext(ctx context.Context, category string) ([]schema.GroupResource, bool) {
	return union(u, func(e CategoryExpanderWithContext) ([]schema.GroupResource, bool) {
		return e.ExpandWithContext(ctx, category)
	})
}

// union merges the expansions of every expander.
func union[E any](expanders []E, expand func(E) ([]schema.GroupResource, bool)) ([]schema.GroupResource, bool) {
	merged := []schema.GroupResource{}
	seen := map[schema.GroupResource]bool{}
	found := false
	for _, e := range expanders {
		resources, ok := expand(e)
		for _, r := range resources {
			if !seen[r] {
				seen[r] = true
				merged = append(merged, r)
			}
		}
		found = found || ok
	}
	return merged, found
}
