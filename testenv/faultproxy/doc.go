// Package faultproxy is an HTTP proxy that sits between clients and a
// kube-apiserver on loopback and misbehaves on purpose, by a seeded
// schedule: it resets connections, cuts watch streams in the middle of an
// event, delays responses, answers 429 Too Many Requests with Retry-After
// and 5xx errors, and stalls streams (headers, then silence).
//
// It is a test tool on top of the standard library only; testenv wires it
// to a running control plane (Env.FaultProxy). The proxy serves HTTP/1.1
// only, so that each request owns its connection and a reset is a real TCP
// reset (RST) the client sees; it forwards to the upstream over HTTP/2 or
// HTTP/1.1 as the upstream offers. Upgrade requests (exec, port-forward,
// attach) are answered 501.
//
// Concurrency: one goroutine per connection, owned by the http.Server that
// Close shuts down. The schedule's random source and the counters are
// guarded by Proxy.mu; streams a fault stalls end when the client goes away,
// when the stall's bound passes, or on Close.
//
// The schedule is deterministic for a given seed and order of arrival;
// requests that race each other may swap their draws.
package faultproxy
