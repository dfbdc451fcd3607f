// +k8s:deepcopy-gen=package
// +groupName=example.kubeclient.dev
// +groupGoName=Example

// Package v1 is a small API used to test the code generator: it carries one
// resource for each combination of client tags the generator understands.
package v1
