// Package discovery asks an API server which API groups, versions and
// resources it serves, what version it runs and which OpenAPI schemas it
// publishes.
//
// DiscoveryClient prefers the aggregated discovery format
// (apidiscovery.k8s.io/v2 APIGroupDiscoveryList), which returns every group
// with its resources in two requests (/api and /apis), and falls back to the
// legacy format, which needs one more request per group-version. Group
// versions that cannot be discovered are reported through
// ErrGroupDiscoveryFailed alongside the results that could be obtained.
//
// Every interface comes in two flavours: the original one, and a
// ...WithContext one whose methods take a context. The To...WithContext
// functions adapt the former to the latter.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package discovery
