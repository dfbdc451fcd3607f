// Package disk caches discovery information in files, so that it outlives
// the process.
//
// CachedDiscoveryClient keeps the group list in <dir>/servergroups.json and
// the resources of each group-version in <dir>/<group>/<version>/serverresources.json
// (<dir>/v1/... for the core group), and trusts a file for a TTL counted
// from its modification time. NewCachedDiscoveryClientForConfig can also put
// an HTTP cache in front of the server (see newCacheRoundTripper), which
// stores responses on disk and revalidates them with If-None-Match or
// If-Modified-Since; the OpenAPI v3 documents are cached that way.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package disk
