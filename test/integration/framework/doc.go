// Package framework runs a real control plane (etcd and kube-apiserver) on
// loopback ports for integration tests and for hack/local-up.sh.
//
// A test package starts one control plane in its TestMain through RunMain;
// every test in the package shares it. The harness generates everything the
// servers need in a temporary folder: a CA and serving certificate, a
// service-account signing key, a static token file with an admin user (group
// system:masters) and an unprivileged user, and an admin kubeconfig. Both
// servers run in their own process group and are stopped when the test binary
// finishes, fails, or receives SIGINT/SIGTERM; on Linux they are also killed
// if the test binary dies without cleaning up. Their output goes to log files
// whose tails are printed when a test fails.
//
// The binaries come from test/integration/controlplane/build.sh, which builds
// them once and caches them; KUBECLIENT_CONTROLPLANE_DIR may point at a folder
// that already holds etcd and kube-apiserver.
package framework
