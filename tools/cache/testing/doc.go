// Package framework provides FakeControllerSource, an in-memory
// ListerWatcher with resource versions, for testing informers and
// controllers without an API server.
package framework
