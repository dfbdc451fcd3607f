// Package protodecode decodes Kubernetes protobuf messages into k8s.io/api
// objects without reflection, producing exactly what the gogo-protobuf
// Unmarshal methods of the objects produce, with fewer allocations and,
// for an informer's cache, with parts shared between objects.
//
// It sits below internal/wirecodec, in the REST client's layer: callers
// reset the object, try one of the entry points below, and when it reports
// an error reset the object again and decode with its own Unmarshal,
// which gives the reference's object and error.
//
// # Two kinds of objects, two entry points
//
//   - Into decodes an object the caller owns (a Get, an uncached List, a
//     watch event handed to the caller): no value in it is shared with
//     another object, and nothing of it enters a process-wide table. Its
//     strings and small values are copies cut from a per-decode slab; a
//     list's arrays and optional messages come from per-decode typed
//     chunks, each cut to its length, and each item's strings and bytes
//     are views of a copy of that item's own bytes.
//   - IntoCache (IntoSharing) decodes an object going straight into an
//     informer's cache, which nobody writes into: with an
//     intern.DecodeSharing, parts equal to those of objects decoded
//     before (managed-fields sets, resource lists, specs, containers,
//     volumes, probes) are the same values. Sharing is decided while the
//     object is built, before anyone else sees it, and a shared value is
//     never written again: input that would merge into one (a field
//     repeated on the wire) is left to the reference. A caller's object
//     decoded on that path (ForCaller) may point at shared values but
//     offers none of its own for reuse, since the caller may write it.
//
// What is shared how, and the files to read:
//
//   - strings: wire/scalar.go, wire/recent_strings.go (a list's decode),
//     wire/stream_strings.go (a watch's decodes), internal/intern;
//   - small values (optional scalars, times, string bytes): wire/slab.go;
//     a caller's list's arrays: wire/typed_chunks.go; its items' strings
//     and bytes, views of each item's own copy: wire/items.go;
//   - resource lists, labels, managed-fields sets: wire/sharing.go,
//     wire/map_templates.go (a list's equal maps cloned, never shared);
//   - whole messages from one version of an object to the next:
//     wire/reuse.go (ReuseLog, Reused, ReusedRun, ReusedPointer);
//   - a list's items kept where they were decoded: wire/items.go and
//     internal/listitems.
//
// Each mechanism has its switch in internal/fastpath: GeneratedDecoders
// (this package at all), Interning, DecodeSlabs and, for the sharing of
// IntoCache, CacheDedup; hack/test-fastpaths-off.sh runs the tests with
// them off.
//
// # Generated code
//
// The zz_generated.*.go files hold one decode function per message type
// reachable from the roots listed in cmd/codegen/jsondecode-roots.txt
// and the type switch the entry points dispatch on. The generator
// (cmd/codegen/internal/protodecodegen) picks, per field, which wire
// helper decodes it. hack/update-codegen.sh writes them;
// hack/verify-codegen.sh checks them. The hand-written runtime they call
// is in the wire subpackage.
//
// # Tests
//
// differential_test.go, fuzz_test.go and mutate_test.go (corrupted
// input) decode the same bytes with the reference and compare;
// sharing_test.go and reuse_test.go check what is shared and that nothing
// shared is written; race_test.go reads decoded objects while others
// decode.
package protodecode
