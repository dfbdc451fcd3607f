// Package sharding splits one controller's work across the replicas of a
// ring, on top of kube-apiserver's sharded list and watch (KEP-5866, alpha
// in Kubernetes 1.36, feature gate ShardedListAndWatch). It is an
// addition: client-go has no such package.
//
// # When to shard
//
// A controller normally runs one active replica behind leader election.
// Shard it when one process can no longer cache or reconcile the whole
// resource: with N replicas each caches, decodes and reconciles about 1/N
// of the objects. Do not shard a controller whose reconcile of one object
// reads other objects of the same resource (they may live on another
// replica), nor one that must see all objects at once (global quotas,
// uniqueness checks).
//
// # The hash space
//
// kube-apiserver places an object at the 64-bit FNV-1a hash of its
// metadata.uid (KeyUID) or metadata.namespace (KeyNamespace), and a list or
// watch with ListOptions.ShardSelector
//
//	shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000') || ...
//
// returns only the objects in those half-open ranges; a list answer echoes
// the selector in ListMeta.ShardInfo. Hash, Range, Selector and
// ParseSelector reproduce the server's hash and grammar (the integration
// test test/integration/sharding checks them against the server). A ring
// cuts the space into MemberConfig.Slots equal slots (DefaultSlots, 64),
// the unit of assignment and hand-over.
//
// # Membership and assignment
//
// Each replica (a Member) holds a coordination.k8s.io/v1 Lease named
// Ring-Identity in the ring's namespace, labelled RingLabel=Ring, whose
// ClaimsAnnotation lists the slots it claims. Only the member writes its
// Lease. A member counts another as live while that member's Lease keeps
// changing: it is judged expired when this member has seen it unchanged for
// LeaseDuration of its own clock, as leader election judges leases.
// Assign maps the slots to the live members deterministically (every
// member computes the same map from the same member set), gives each the
// same number of slots give or take one, and moves about 1/N of the slots
// when one member comes or goes.
//
// # The protocol
//
// Every RetryPeriod a member runs one round, in this order:
//
//  1. If its last successful renewal was RenewDeadline or more ago, it
//     stops all work (OnShardChange with no slots) before anything else.
//  2. From the live members it last saw plus itself it computes its slots,
//     and stops work on every active slot that is no longer among them:
//     OnShardChange returns only when that work has stopped (Controller
//     drains the slot's in-flight reconciles and drops its objects from
//     its cache).
//  3. It writes its Lease, claiming exactly its slots: the active ones
//     it kept and the ones it wants to start.
//  4. It lists the ring's Leases, and deletes those that expired in its
//     view (under a resourceVersion precondition).
//  5. It starts each claimed slot that no other live member claims.
//
// A member therefore starts a slot only after a read that followed its own
// claim showed no other live claim, and stops a slot before its Lease stops
// claiming it. Of two members that claim a slot at the same time, the one
// that writes second reads the other's claim; a member that is not the
// slot's owner in its view withdraws its claim in its next round.
//
// # Guarantees
//
// No slot is worked on by two members at the same time, provided that:
// clocks run at about the same rate (a member's RenewDeadline must elapse
// before any observer's LeaseDuration does; the defaults, 10s and 15s,
// tolerate clock rates 1.5 times apart), work on a slot stops within
// LeaseDuration - RenewDeadline of OnShardChange taking it away (a
// Controller's ReconcileFunc must return that soon after its context
// ends), and nobody but the member writes or deletes a live member's Lease.
// A member cut off from the server (partitioned) cannot renew; it stops
// all work at RenewDeadline after its last successful renewal, before
// any other member may judge its Lease expired, and rejoins with a new
// round once it reaches the server again.
//
// # The bound
//
// A slot whose owner dies without releasing it is taken over within
// MemberConfig.UnownedBound, LeaseDuration + 2*RetryPeriod on the clock of
// the member that takes it, and its objects are reconciled once that
// member's informer has listed them. A member that leaves cleanly (Run
// returns) deletes its Lease: its slots move within about two
// RetryPeriods, as do slots handed to a joining member, plus the loser's
// drain.
//
// # Sharded informers
//
// ListWatch wraps a cache.ListerWatcher so that every list and watch
// carries the selector. It detects from the first list answer whether the
// server applied it (ShardInfo echoed): when it did not (the gate is off,
// an older server) it filters on the client with the same hash and logs
// that once, so the same controller works on any cluster and is only
// cheaper on one with the gate. Selector.ApplyTo suits an informer factory's
// tweak function when the server is known to filter.
//
// # Controller
//
// Controller puts it together: a Member, a sharded informer rebuilt at
// every change of the member's slots, a rate-limited workqueue and a
// ReconcileFunc, as a single-leader controller has (see
// examples/sharded-controller).
//
// # Limits
//
//   - Re-sharding rebuilds the informer: the replica lists its new share
//     again and every object in it is reconciled once more.
//   - Objects whose key changes do not exist: uid and namespace are
//     immutable. With KeyNamespace a namespace is never split, and all
//     cluster-scoped objects land in one slot.
//   - Nothing fences the server: a reconcile that ignores its context can
//     go on writing after its replica lost the slot.
//   - A replica that joins shortly after another died waits up to one
//     LeaseDuration before the dead member's Lease expires in its own view,
//     unless a live member already deleted it.
//   - Every member of a ring must use the same Slots; a member that sees
//     another count takes no slot.
//
// # Clock model
//
// MemberConfig.Clock drives the round timer and every expiry judgement;
// request timeouts use the real clock through context deadlines. Tests
// drive members with fake clocks (sim_test.go runs several, at different
// rates, without sleeping).
//
// Layer 5 (controller machinery) of kubeclient; see the README's Layers
// section. It is built on Leases (kubernetes/typed/coordination/v1),
// informers (tools/cache) and the workqueue (util/workqueue).
package sharding
