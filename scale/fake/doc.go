// Package fake provides FakeScaleClient, a scale.ScalesGetter that records
// every call as a testing.Action and answers through the reactors of an
// embedded testing.Fake.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package fake
