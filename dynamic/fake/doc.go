// Package fake provides FakeDynamicClient, an in-memory dynamic.Interface
// for tests.
//
// It records every call as a testing.Action and answers it from a
// testing.ObjectTracker, which behaves like a small API server: writes bump
// resourceVersion, updates with a stale resourceVersion conflict, list and
// watch honour label and field selectors, and a watch started from a
// resourceVersion replays every change made after it. Reactors added with
// the embedded testing.Fake can intercept any verb.
package fake
