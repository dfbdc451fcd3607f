// Package api holds the in-memory (internal) form of a kubeconfig file:
// clusters, users (auth infos) and contexts keyed by name, plus helpers to
// minify, flatten, shorten and redact a Config. The serialized form lives in
// the v1 sub-package and the latest sub-package turns bytes into a Config.
package api
