// Package bench holds side-by-side benchmarks of this library against
// k8s.io/client-go v0.37.2. It is its own module so that client-go never
// enters the library's dependency graph; client-go is only the yardstick here.
package bench
