package openapi_test

import "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

type unstructuredDeployment struct{}

func (unstructuredDeployment) build() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata":   map[string]any{"name": "web", "namespace": "default"},
		"spec":       map[string]any{"replicas": int64(2)},
	}}
}
