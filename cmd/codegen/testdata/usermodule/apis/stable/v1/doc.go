// Package v1 is the API of a user's module in the Go tool test of the
// generator: group stable.example.com, version v1.
//
// +k8s:deepcopy-gen=package
// +groupName=stable.example.com
package v1
