// Package testenv runs a real Kubernetes control plane for tests: etcd,
// kube-apiserver and kube-controller-manager as child processes on loopback
// ports, built from the official Go modules of the release this module
// tracks.
//
// It sits above the library (clients come from its rest.Config) and below
// the tests that use it. Start generates everything the servers need in a
// working folder (a CA and serving certificate, the service-account
// signing key, a static token file with the built-in identities, an admin
// kubeconfig), starts the servers, and waits until they are ready. Env
// offers client configurations for the identities, a namespace per test,
// CRD installation that waits until the CRD is served, and stopping and
// restarting kube-apiserver under load. Main is a TestMain body that shares
// one Env between a package's tests.
//
// Unlike controller-runtime's envtest, kube-controller-manager runs by
// default, so namespace deletion completes, the garbage collector deletes
// dependents (background and foreground), Deployments create ReplicaSets,
// and Jobs create Pods. No kubelet and no scheduler run: Pods stay Pending
// and are never bound to a node, so a Deployment never becomes available
// and a Job never completes on its own.
//
// Binaries are found or built by package binaries; faultproxy puts a
// fault-injecting proxy between clients and kube-apiserver.
package testenv
