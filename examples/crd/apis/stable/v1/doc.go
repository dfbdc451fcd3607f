// Package v1 is an example API package for a custom resource: version v1 of
// the stable.example.com group, with the namespaced CronTab kind and the
// cluster-scoped CronTabClass kind. It shows the markers the generator reads
// (+groupName, +genclient, +k8s:deepcopy-gen) on a user's own types.
//
// +k8s:deepcopy-gen=package
// +groupName=stable.example.com
package v1
