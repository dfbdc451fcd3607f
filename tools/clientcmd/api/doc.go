// Package api holds the in-memory (internal) form of a kubeconfig file:
// clusters, users (auth infos) and contexts keyed by name, plus helpers to
// minify, flatten, shorten and redact a Config. The serialized form lives in
// the v1 sub-package and the latest sub-package turns bytes into a Config.
//
// Layer 1 (configuration) of kubeclient; see the README's Layers section.
package api
