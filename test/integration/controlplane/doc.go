// Package controlplane is a module of its own that builds the real
// kube-apiserver, kube-controller-manager and etcd binaries for the
// integration suite. It is kept apart from both the library and the test
// module so that neither pulls in k8s.io/kubernetes.
package controlplane
