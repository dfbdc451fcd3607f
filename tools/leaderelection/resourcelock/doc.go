// Package resourcelock defines the lock objects that leader election uses to
// store its election record. The only supported lock is a
// coordination.k8s.io/v1 Lease (LeaseLock); MultiLock remains for
// compatibility with the migration-era API.
package resourcelock
