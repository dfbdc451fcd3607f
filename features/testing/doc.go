// Package testing lets tests change a client-go feature gate for their own
// duration.
package testing
