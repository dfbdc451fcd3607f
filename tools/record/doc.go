// Package record records core/v1 Events: an EventRecorder turns calls into
// Event objects, an EventBroadcaster fans them out to watchers, loggers and
// sinks, and the EventCorrelator in front of a sink counts repeats,
// aggregates similar events and rate-limits spammy sources so that the API
// server is not flooded.
//
// Layer 5 (controller machinery) of kubeclient; see the README's Layers section.
package record
