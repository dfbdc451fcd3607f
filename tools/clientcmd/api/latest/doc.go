// Package latest wires the kubeconfig types into a runtime.Scheme and
// exposes Codec, which reads kubeconfig files in YAML or JSON into the
// internal api.Config and writes api.Config back out as v1 YAML.
//
// Layer 1 (configuration) of kubeclient; see the README's Layers section.
package latest
