// Package internal holds the events.k8s.io recorder interfaces shared by
// tools/events and tools/record. It exists to break an import cycle:
// record's adapter implements these interfaces while events' broadcaster
// adapter builds on record.
//
// Layer 5 (controller machinery) of kubeclient; see the README's Layers section.
package internal
