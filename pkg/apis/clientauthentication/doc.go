// Package clientauthentication holds the internal form of the
// client.authentication.k8s.io API: the ExecCredential a client sends to an
// exec credential plugin and the credentials the plugin sends back. The v1
// and v1beta1 sub-packages are the wire versions.
//
// +groupName=client.authentication.k8s.io
//
// Layer 1 (configuration) of kubeclient; see the README's Layers section.
package clientauthentication
