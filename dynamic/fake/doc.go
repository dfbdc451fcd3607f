// Package fake provides FakeDynamicClient, an in-memory dynamic.Interface
// for tests.
//
// It records every call as a testing.Action and answers it from a
// testing.ObjectTracker that, like client-go's, stores objects exactly as
// given: no resourceVersion, uid or generateName handling, no conflicts.
// List applies the label selector; field selectors are ignored. A watch
// with list options starts with the objects written after the
// resourceVersion it names. Reactors added with the embedded testing.Fake
// can intercept any verb. NewServerLikeDynamicClient (an addition to
// client-go) answers like a small API server instead, with field
// management; see its documentation.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package fake
