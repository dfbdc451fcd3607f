// Package server is the benchmark's fake kube-apiserver: it serves GET,
// LIST (paginated or not), watch and watch-list requests for one resource
// from bytes encoded before the measurement starts, in JSON or protobuf, as
// full objects or metadata only (PartialObjectMetadata), so answering costs
// it little more than a write. It runs in a process of its own (see
// cmd/informerbench) so that its CPU and memory are not counted.
//
// The client drives its phases through /bench/ endpoints: the watch holds
// the MODIFIED events back until the client says "events", and ends with a
// 410 Expired error (forcing a relist) when the client says "expire".
package server
