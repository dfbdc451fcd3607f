// Package openapitest provides openapi.Client implementations for tests:
// FakeClient and FakeGroupVersion return hard-coded values or errors, and
// the file clients serve OpenAPI v3 documents from a directory laid out like
// api/openapi-spec/v3 in the Kubernetes repository (one
// "<path with / as __>_openapi.json" file per group-version).
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package openapitest
