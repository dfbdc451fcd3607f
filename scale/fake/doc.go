// Package fake provides FakeScaleClient, a scale.ScalesGetter that records
// every call as a testing.Action and answers through the reactors of an
// embedded testing.Fake.
package fake
