package main

import "fmt"

// readme is the README.md of the output: where the tree came from, the
// version rule and how to use it. It starts with markerLine.
func readme(commit string, tests bool) []byte {
	content := "without test files"
	if tests {
		content = "with test files"
	}
	return []byte(fmt.Sprintf(`%s

This directory is kubeclient (%s), an original implementation of the
Kubernetes Go client, written out as module k8s.io/client-go by cmd/dropin.

- kubeclient commit: %s
- content: every package of the library module, generated code included,
  imports rewritten to k8s.io/client-go, %s
- stands in for: k8s.io/client-go v0.37.x, used with k8s.io/api and
  k8s.io/apimachinery v0.37.x
- go.mod: requires what k8s.io/client-go v0.37.2 requires, at least, so a
  project that replaces client-go selects the same versions of everything else

Use it in a project whose dependencies import k8s.io/client-go
(controller-runtime, k8s.io/cli-runtime, k8s.io/kubectl, generated clientsets):

	go mod edit -replace k8s.io/client-go=<this directory>
	go mod tidy

Do not edit this directory: rerun cmd/dropin in the kubeclient checkout.
Licensed under the Apache License 2.0 (LICENSE).
`, markerLine, sourceModule, commit, content))
}
