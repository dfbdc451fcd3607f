// Package apiservertest runs an httptest server that answers the discovery
// and OpenAPI v3 endpoints of a small cluster the way a kube-apiserver does:
// legacy discovery (/api, /apis, one APIResourceList per group-version),
// aggregated discovery (apidiscovery.k8s.io/v2 APIGroupDiscoveryList, when
// asked for and enabled), /version, and /openapi/v3 with hashed,
// immutable group-version documents validated by ETag. It counts requests
// per path and can fail or hold chosen paths. It serves the tests of the
// discovery caches.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package apiservertest
