// Package testing holds helpers for tests of code built on this library:
// temporary directories and files, FakeHandler (an http.Handler that records
// the request it got and answers with a canned response) and
// FakeOpenAPIServer (an httptest server publishing OpenAPI v3 documents the
// way a kube-apiserver does).
//
// Layer 4 (object clients: test helpers) of kubeclient; see the README's Layers section.
package testing
