// Package v1beta1 is version v1beta1 of the client.authentication.k8s.io API, the
// JSON an exec credential plugin reads from KUBERNETES_EXEC_INFO and
// prints on its standard output.
//
// +groupName=client.authentication.k8s.io
//
// Layer 1 (configuration) of kubeclient; see the README's Layers section.
package v1beta1
