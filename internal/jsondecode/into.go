// Package jsondecode decodes JSON into the Go types of k8s.io/api without
// reflection, exactly as apimachinery's JSON serializer would.
package jsondecode

import "k8s.io/apimachinery/pkg/runtime"

// Into decodes the JSON document data into obj as apimachinery's JSON
// serializer (sigs.k8s.io/json, case-sensitive, non-strict) would.
// handled is false when obj's concrete type has no generated decoder;
// obj is then untouched. When err != nil the caller decodes again with
// the reference decoder into the same obj; Into guarantees that this
// leaves obj and the returned error exactly as the reference decoder
// alone would.
func Into(data []byte, obj runtime.Object) (handled bool, err error) {
	return false, nil
}
