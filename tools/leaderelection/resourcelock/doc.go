// Package resourcelock defines the lock objects that leader election uses to
// store its election record. The only supported lock is a
// coordination.k8s.io/v1 Lease (LeaseLock); MultiLock remains for
// compatibility with the migration-era API.
//
// Layer 5 (controller machinery) of kubeclient; see the README's Layers section.
package resourcelock
