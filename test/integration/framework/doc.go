// Package framework holds what the integration test packages share on top
// of testenv: RunMain (testenv.Main plus the exec credential plugin mode
// the auth tests need), content-type helpers and a wire log that checks
// which format went over the connection.
//
// The control plane itself (etcd, kube-apiserver, kube-controller-manager,
// certificates, identities, restarts, etcd compaction) is testenv's; see
// testenv/doc.go.
package framework
