package testenv

import (
	"io"
	"time"
)

// Options configures a test environment. The zero value starts etcd,
// kube-apiserver and kube-controller-manager with RBAC authorization, the
// built-in identities and no audit log.
type Options struct {
	// Dir is the working folder for data, certificates, logs and the
	// kubeconfig. Empty means a new temporary folder that Stop removes
	// (unless KUBECLIENT_KEEP_CONTROLPLANE_DIR is set).
	Dir string

	// BinariesDir holds etcd, kube-apiserver and kube-controller-manager.
	// Empty means: KUBECLIENT_CONTROLPLANE_DIR, then KUBEBUILDER_ASSETS, then
	// the build cache, building what is missing (see package binaries).
	BinariesDir string

	// DisableControllerManager starts no kube-controller-manager, as
	// envtest does: namespaces stay Terminating, nothing collects garbage.
	DisableControllerManager bool
	// Controllers are kube-controller-manager's --controllers; nil means
	// DefaultControllers.
	Controllers []string

	// FeatureGates are passed as --feature-gates to kube-apiserver and
	// kube-controller-manager.
	FeatureGates map[string]bool
	// APIServerArgs are appended to kube-apiserver's command line; a flag
	// given here overrides the one testenv sets.
	APIServerArgs []string
	// ControllerManagerArgs are appended to kube-controller-manager's
	// command line.
	ControllerManagerArgs []string

	// Users are extra identities in kube-apiserver's static token file;
	// Env.UserConfig returns a configuration for each. AdminUser and
	// UnprivilegedUser always exist.
	Users []User

	// AuditLog turns kube-apiserver's audit log on (every request at level
	// Metadata, JSON lines in Env.AuditLogPath).
	AuditLog bool

	// StartTimeout bounds the wait for each server to become ready; zero
	// means two minutes. It does not include building the binaries.
	StartTimeout time.Duration

	// BuildLog receives progress lines of a binaries build; nil means
	// os.Stderr.
	BuildLog io.Writer
}

// User is an identity authenticated by a bearer token.
type User struct {
	Name   string
	Groups []string
}

// DefaultControllers are the kube-controller-manager controllers started
// when Options.Controllers is nil. None of them needs a node, a kubelet or a
// cloud provider. root-ca-certificate-publisher-controller is left out on
// purpose: it puts a kube-root-ca.crt ConfigMap into every namespace, which
// surprises tests that count the ConfigMaps they made; add it when a test
// needs that ConfigMap.
var DefaultControllers = []string{
	"namespace-controller",
	"garbage-collector-controller",
	"deployment-controller",
	"replicaset-controller",
	"replicationcontroller-controller",
	"statefulset-controller",
	"job-controller",
	"cronjob-controller",
	"ttl-after-finished-controller",
	"serviceaccount-controller",
	"serviceaccount-token-controller",
	"resourcequota-controller",
	"endpointslice-controller",
}
