// Package sharding splits one controller's work across the replicas of a
// ring, on top of kube-apiserver's sharded list and watch (KEP-5866,
// feature gate ShardedListAndWatch): every replica lists and watches only
// the objects whose metadata.uid (or metadata.namespace) hashes into its
// part of the 64-bit FNV-1a hash space, and hands its part over safely when
// replicas come and go. It is an addition: client-go has no such package.
//
// Layer 5 (controller machinery) of kubeclient; see the README's Layers
// section. It is built on Leases (kubernetes/typed/coordination/v1),
// informers (tools/cache) and the workqueue (util/workqueue).
package sharding
