// Package exec describes how a finished remote or local command reports its
// exit status, so callers can tell "the command ran and exited non-zero"
// apart from "the command could not be run".
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package exec
