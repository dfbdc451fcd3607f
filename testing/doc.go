// Package testing is the engine behind every fake clientset: it records the
// actions a fake client performs, routes them through chains of reactors, and
// answers them from an in-memory ObjectTracker.
//
// The tracker behaves like a small API server rather than a plain map: every
// write bumps a tracker-wide resourceVersion, updates with a stale
// resourceVersion conflict, metadata.generation follows spec changes,
// generateName, uid and creationTimestamp are filled in on create, finalizers
// delay deletion, list and watch honour label and field selectors, and a
// watch started at a resourceVersion replays everything written after it
// from a bounded per-resource history (older versions answer 410 Gone).
// Writes to the status subresource change only the status, the scale
// subresource is served from spec.replicas, and pod evictions and bindings
// delete and assign pods. NewFieldManagedObjectTracker adds managed fields
// and server-side apply, with the status subresource tracked separately
// from the main resource.
//
// Objects given to Add (the fixtures of a fake clientset) are stored as they
// are, so tests that compare what they read back with what they seeded keep
// working.
package testing
