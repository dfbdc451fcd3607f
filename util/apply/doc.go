// Package apply builds server-side apply requests: it serializes an apply
// configuration and attaches it to a PATCH request with the apply patch type.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package apply
