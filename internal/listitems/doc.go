// Package listitems lets an informer keep, as its cached objects, the
// allocations a decoder made for the items of a list, instead of copying
// every item out of the list's array.
//
// It sits between the REST client's decoders (layer 3) and the
// reflector and pager of tools/cache and tools/pager (layer 5). The
// reflector copies each item out of a list it received
// (meta.ExtractListWithAlloc, as client-go's does), so that one cached
// object does not keep a whole list's array alive. A copy has a new
// address, and what a decoder knew about the item by its address is lost
// with the array: the protobuf decoders keep weak pointers to the specs
// they decoded (wire.Reused), so that the next version of an object, whose
// spec is most often unchanged, shares it instead of decoding it again.
//
// With a Recorder in the context of its list request (NewContext), a
// decoder that decodes a list for an informer's cache gives each item an
// allocation of its own, copies it into the list's array and records the
// allocation (Record). Extract then returns, for each item of the list,
// the recorded allocation when the item is still a byte-for-byte copy of
// it (the ListerWatcher may change or replace the list it returns), and a
// copy of the item otherwise: what meta.ExtractListWithAlloc returns, at
// addresses the decoder knew.
//
// Ownership: a decoder records only objects it made and will not write
// again; the items Extract returns are then the caller's to publish, as
// copies would be. A Recorder is safe for concurrent use.
package listitems
