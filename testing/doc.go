// Package testing is the engine behind every fake clientset: it records the
// actions a fake client performs, routes them through chains of reactors, and
// answers them from an in-memory ObjectTracker.
//
// The trackers of NewObjectTracker and NewFieldManagedObjectTracker (behind
// the fake clientsets, the fake dynamic client and the fake metadata client)
// behave like client-go's: objects are stored and returned exactly as they
// are given, apart from the namespace of the request and, with field
// management, the type metadata and managed fields. Nothing fills in uid,
// creationTimestamp, generation, resourceVersion or a name from
// generateName; updates never conflict; Delete removes an object at once
// whatever its finalizers; dry-run requests are stored like any other;
// writes to the status subresource replace the whole object. Each resource
// counts its own writes: a list's resourceVersion is that count, a watch
// with list options starts with an ADDED event for every object written
// after the count it names (so a watch from a list's resourceVersion starts
// empty), a watch without options only sees future changes, and list and
// watch ignore label and field selectors, which the fake clients apply to
// lists themselves.
//
// NewServerLikeObjectTracker and NewServerLikeFieldManagedObjectTracker
// opt in to the semantics of a small API server instead: every write bumps
// a tracker-wide resourceVersion stored in the object, updates with a stale
// resourceVersion conflict, metadata.generation follows spec changes,
// generateName, uid and creationTimestamp are filled in on create,
// finalizers delay deletion, dry-run requests are not persisted, list and
// watch honour label and field selectors and list pages with Limit and
// Continue, and a watch started at a resourceVersion replays everything
// written after it from a bounded per-resource history (older versions
// answer 410 Gone). Writes to the status subresource change only the
// status, and with field management the status subresource is tracked
// separately from the main resource. To use one behind a fake client,
// replace the client's ReactionChain and WatchReactionChain with
// ObjectReaction and a watch reactor over the new tracker.
//
// With every tracker of this package ObjectReaction serves the scale
// subresource from spec.replicas, and pod evictions and bindings delete
// and assign pods. Objects given to Add (the fixtures of a fake clientset)
// are always stored as they are.
//
// Layer 4 (object clients: the fakes) of kubeclient; see the README's Layers section.
package testing
