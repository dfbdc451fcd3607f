// Package jsondecode decodes JSON documents into k8s.io/api objects without
// reflection, producing exactly what apimachinery's JSON serializer
// (sigs.k8s.io/json, case-sensitive, non-strict) produces.
//
// It sits below rest and the serializers: callers try Into first and fall
// back to the reference decoder when Into reports that it did not handle
// the object's type, or failed.
//
// The zz_generated.*.go files hold one decode function per struct type
// reachable from the roots listed in cmd/codegen/jsondecode-roots.txt
// (the objects of core/v1, apps/v1, batch/v1, coordination/v1,
// discovery/v1, events/v1 and a few meta/v1 types) and the type switch
// Into dispatches on. hack/update-codegen.sh writes them with the rest of
// the generated code; hack/verify-codegen.sh checks them. The hand-written
// runtime they call is package decoders (pkg/decoders), public so that
// decoders generated into users' API packages can call it too; Into also
// finds the decoders those packages register there.
//
// The differential tests decode random, populated, mutated and corrupted
// documents with Into (plus the fallback) and with sigs.k8s.io/json alone
// and require reflect.DeepEqual results and equal errors. Set
// KUBECLIENT_FUZZ_LONG=1 (or a round count) for a longer run; FuzzInto is
// the native fuzz target.
package jsondecode
