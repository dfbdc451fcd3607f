// Package openapi3 offers a typed view of the OpenAPI v3 documents listed by
// an openapi.Client: which group-versions exist and each one's specification,
// parsed into k8s.io/kube-openapi's spec3 types or into a generic map.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package openapi3
