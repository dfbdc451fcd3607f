// Package dynamic is a client for any Kubernetes resource, built-in or
// custom, that works on unstructured.Unstructured values instead of Go
// types generated per kind.
//
// A DynamicClient addresses a resource by its GroupVersionResource, so the
// caller needs no compiled-in knowledge of the schema: it sends objects as
// JSON (or CBOR when the ClientsAllowCBOR and ClientsPreferCBOR feature gates
// say so) and decodes whatever the server returns into maps. Server errors
// come back as *errors.StatusError, like those of the typed clients.
//
// Subpackages add a fake for tests (fake), shared informers that cache
// unstructured objects (dynamicinformer) and listers over those caches
// (dynamiclister).
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package dynamic
