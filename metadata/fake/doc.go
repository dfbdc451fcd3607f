// Package fake provides FakeMetadataClient, an in-memory metadata.Interface
// for tests.
//
// Calls are recorded as testing.Actions and answered from a
// testing.ObjectTracker holding metav1.PartialObjectMetadata objects, which
// stores them exactly as given, like client-go's (see package testing for
// how list and watch resourceVersions work). Because the metadata API has
// no create or update, the resource clients of the fake also implement
// MetadataClient, whose CreateFake and UpdateFake let tests change the
// stored objects through the client.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package fake
