// Package restmapper builds meta.RESTMappers from discovery information:
// NewDiscoveryRESTMapper turns a snapshot of the server's groups and
// resources into a PriorityRESTMapper that prefers the core group and then
// each group's preferred version, DeferredDiscoveryRESTMapper builds one
// lazily from a cached discovery client and rebuilds it when a lookup misses
// on stale data, NewShortcutExpander resolves short names such as "deploy",
// and the category expanders resolve categories such as "all".
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package restmapper
