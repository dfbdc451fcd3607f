// Package cached wraps an openapi client with an in-memory cache: the path
// listing is fetched once, and each group-version document is fetched once
// per content type. Because every listed URL carries the document's hash, a
// new listing (a new cached Client) is how callers observe schema changes.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package cached
