// Package fake provides a RESTClient stand-in for tests: requests built on
// it go to a recorded response, a canned error or a caller-supplied
// http.Client instead of a server. Generated fake clientsets use it.
//
// Layer 3 (REST client) of kubeclient; see the README's Layers section.
package fake
