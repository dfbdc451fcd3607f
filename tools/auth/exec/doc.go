// Package exec contains helper utilities for exec credential plugins: the
// plugin side of the client.authentication.k8s.io protocol, which turns the
// ExecCredential a client passes in KUBERNETES_EXEC_INFO into a rest.Config
// for the cluster the credential is for.
//
// Layer 1 (configuration) of kubeclient; see the README's Layers section.
package exec
