// Package binaries finds or builds the control-plane programs the test
// environment runs: etcd, kube-apiserver and kube-controller-manager.
//
// It is the lowest layer of testenv and imports nothing but the standard
// library. A program is looked up, in order, in the folder named by
// KUBECLIENT_CONTROLPLANE_DIR, in the folder named by KUBEBUILDER_ASSETS
// (the layout setup-envtest produces, for people migrating from envtest), and
// in the build cache. A program missing from all three is built from the
// official Go modules (k8s.io/kubernetes, go.etcd.io/etcd/server/v3) through
// the Go module proxy: the package writes the Go module it embeds (go.mod,
// go.sum and one main package per program, see module/) to a temporary
// folder and runs `go build` there, so a user who only `go get`s testenv
// builds exactly the versions this module was tested with. Builds are
// stamped with the release version, cached under
// $KUBECLIENT_CACHE/controlplane/<versions>/ (default ~/.cache/kubeclient)
// and serialised between processes by a file lock.
package binaries
