// Package retry repeats an operation, typically an update of an API object,
// while it fails with a retriable error such as a resourceVersion conflict,
// sleeping between attempts according to a wait.Backoff.
package retry
