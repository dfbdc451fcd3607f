// Package memory caches discovery information in memory.
//
// The client returned by NewMemCacheClient fetches all groups and resources
// once, on first use, and answers from memory until Invalidate is called.
// With a server speaking aggregated discovery the first fetch is one request
// per discovery root; with a legacy server it is one more request per
// group-version, made concurrently. Concurrent callers share one fetch.
// Group-versions that failed with a transient error (a 5xx or 429 status, a
// refused or reset connection, a cancelled context) are fetched again when
// asked for; other failures stay cached until Invalidate.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package memory
