// Package protodecode decodes Kubernetes protobuf messages into k8s.io/api
// objects without reflection, producing exactly what the gogo-protobuf
// Unmarshal methods of the objects produce, with fewer allocations:
// strings are interned in the process-wide table of internal/intern
// (except fields unique per object), quantities come from a small cache
// of parsed values, and repeated fields and maps are sized for all their
// elements at once. Only strings are shared between objects.
//
// It sits below internal/wirecodec: callers reset the object, try Into,
// and when Into reports an error reset the object again and decode with
// its own Unmarshal, which gives the reference's object and error.
//
// The zz_generated.*.go files hold one decode function per message type
// reachable from the roots listed in cmd/codegen/jsondecode-roots.txt
// and the type switch Into dispatches on. hack/update-codegen.sh writes
// them; hack/verify-codegen.sh checks them. The hand-written runtime they
// call is in the wire subpackage.
package protodecode
