// Package deepcopygen writes zz_generated.deepcopy.go for the input API
// packages tagged +k8s:deepcopy-gen=package: DeepCopyInto and DeepCopy for
// every struct type and every named slice, map or pointer type, and
// DeepCopyObject for types tagged
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object.
// Types of other packages are copied with their own DeepCopyInto when they
// declare one, and by assignment when they hold no references.
package deepcopygen
