// Package latest wires the kubeconfig types into a runtime.Scheme and
// exposes Codec, which reads kubeconfig files in YAML or JSON into the
// internal api.Config and writes api.Config back out as v1 YAML.
package latest
