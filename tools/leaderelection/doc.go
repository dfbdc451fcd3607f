// Package leaderelection elects one leader among a set of candidates that
// share a lock object (a coordination.k8s.io Lease, see resourcelock).
//
// Electors never trust timestamps written by other participants: a lease is
// judged expired only when this elector has seen the stored record stay
// unchanged for LeaseDuration of its own clock. Absolute clock skew between
// nodes is therefore harmless; what matters is the rate at which clocks run.
// A leader gives up when it cannot renew within RenewDeadline, so the ratio
// LeaseDuration/RenewDeadline bounds how much faster one node's clock may run
// than another's before two candidates could both believe they lead.
//
// The package does not fence: code guarded by leadership must tolerate a
// short window in which a deposed leader has not yet noticed.
//
// Layer 5 (controller machinery) of kubeclient; see the README's Layers section.
package leaderelection
