// Package retry repeats an operation, typically an update of an API object,
// while it fails with a retriable error such as a resourceVersion conflict,
// sleeping between attempts according to a wait.Backoff.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package retry
