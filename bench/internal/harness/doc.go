// Package harness holds the benchmark's workloads, written once against the
// small Lib interface that each library under test implements (package
// libs/clientgo and libs/kubeclient), so that both run the same code.
// A workload runs in a process of its own, against the fake server of
// package server in another process, and returns its metrics.
package harness
