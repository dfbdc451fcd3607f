// Package metrics declares the metrics the client library records, as small
// interfaces with no-op defaults. A metrics backend (for example a
// Prometheus adapter) installs real implementations once, at start-up,
// through Register.
//
// Layer 3 (REST client) of kubeclient; see the README's Layers section.
package metrics
