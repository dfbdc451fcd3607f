// Package openapi reads the OpenAPI v3 documents an API server publishes.
//
// The server lists one document per group-version at /openapi/v3; each entry
// carries a server-relative URL whose hash query parameter changes whenever
// that document changes. Client fetches the listing, and each GroupVersion it
// returns fetches its own document on demand in the content type asked for.
// The openapi/cached package layers an in-memory cache on top.
package openapi
