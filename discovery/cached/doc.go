// Package memory (imported as discovery/cached) keeps the old location of
// the in-memory discovery cache. New code should import
// discovery/cached/memory.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package memory
