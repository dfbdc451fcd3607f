// Package events records events.k8s.io/v1 Events. A recorder builds Event
// objects; the EventBroadcaster delivers them to watchers, logs and an
// EventSink, and folds repeats of the same event (same object, reason,
// action, type and reporter) into one Event with a Series whose count the
// broadcaster keeps up to date and finishes once the repeats stop.
//
// Layer 5 (controller machinery) of kubeclient; see the README's Layers section.
package events
