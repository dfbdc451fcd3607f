package resourcelock

import (
	"context"
	"fmt"
	"time"

	coordinationv1api "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	clientset "github.com/kubeclient/client-go/kubernetes"
	coordinationv1 "github.com/kubeclient/client-go/kubernetes/typed/coordination/v1"
	corev1 "github.com/kubeclient/client-go/kubernetes/typed/core/v1"
	restclient "github.com/kubeclient/client-go/rest"
)

const (
	// LeaderElectionRecordAnnotationKey is the annotation under which the
	// removed annotation-based locks stored their record.
	LeaderElectionRecordAnnotationKey = "control-plane.alpha.kubernetes.io/leader"

	endpointsResourceLock        = "endpoints"
	configMapsResourceLock       = "configmaps"
	endpointsLeasesResourceLock  = "endpointsleases"
	configMapsLeasesResourceLock = "configmapsleases"

	// LeasesResourceLock is the lock type of a coordination.k8s.io Lease.
	LeasesResourceLock = "leases"
)

// LeaderElectionRecord is the election state a lock stores: who holds it,
// for how long, and how often it has changed hands. Electors compare records
// only for change; the timestamps inside are informational.
type LeaderElectionRecord struct {
	// HolderIdentity names the current holder; empty means the lock is free
	// and anyone may take it (a holder that steps down clears it).
	HolderIdentity       string                                     `json:"holderIdentity"`
	LeaseDurationSeconds int                                        `json:"leaseDurationSeconds"`
	AcquireTime          metav1.Time                                `json:"acquireTime"`
	RenewTime            metav1.Time                                `json:"renewTime"`
	LeaderTransitions    int                                        `json:"leaderTransitions"`
	Strategy             coordinationv1api.CoordinatedLeaseStrategy `json:"strategy"`
	PreferredHolder      string                                     `json:"preferredHolder"`
}

// EventRecorder is the subset of an event recorder a lock needs to report
// leadership changes.
type EventRecorder interface {
	Eventf(obj runtime.Object, eventType, reason, message string, args ...interface{})
}

// ResourceLockConfig holds what every lock type shares: the identity of this
// participant and an optional event recorder.
type ResourceLockConfig struct {
	// Identity uniquely names this participant among all candidates.
	Identity string
	// EventRecorder is optional.
	EventRecorder EventRecorder
}

// Interface is what the leader elector needs from a lock: read, create and
// replace the election record, report events, and describe itself.
type Interface interface {
	// Get returns the stored record and its raw serialized form.
	Get(ctx context.Context) (*LeaderElectionRecord, []byte, error)

	// Create stores a new record.
	Create(ctx context.Context, ler LeaderElectionRecord) error

	// Update replaces the record previously read or created.
	Update(ctx context.Context, ler LeaderElectionRecord) error

	// RecordEvent reports a leadership event about the lock object.
	RecordEvent(string)

	// Identity returns the identity of this participant.
	Identity() string

	// Describe returns a human readable name of the lock.
	Describe() string
}

func newLock(lockType string, ns string, name string, coordinationClient coordinationv1.CoordinationV1Interface, rlc ResourceLockConfig, labels map[string]string) (Interface, error) {
	switch lockType {
	case LeasesResourceLock:
		if coordinationClient == nil {
			return nil, fmt.Errorf("a %s lock needs a coordination/v1 client, got nil", LeasesResourceLock)
		}
		return &LeaseLock{
			LeaseMeta:  metav1.ObjectMeta{Namespace: ns, Name: name},
			Client:     coordinationClient,
			LockConfig: rlc,
			Labels:     labels,
		}, nil
	case endpointsResourceLock, configMapsResourceLock:
		return nil, fmt.Errorf("%s lock is removed, migrate to %s", lockType, LeasesResourceLock)
	case endpointsLeasesResourceLock:
		return nil, fmt.Errorf("endpointsleases lock is removed, migrate to %s", LeasesResourceLock)
	case configMapsLeasesResourceLock:
		return nil, fmt.Errorf("configmapsleases lock is removed, migrated to %s", LeasesResourceLock)
	default:
		return nil, fmt.Errorf("Invalid lock-type %s", lockType)
	}
}

// New returns a lock of lockType for the object ns/name. Only
// LeasesResourceLock is supported; coreClient is accepted for compatibility.
func New(lockType string, ns string, name string, coreClient corev1.CoreV1Interface, coordinationClient coordinationv1.CoordinationV1Interface, rlc ResourceLockConfig) (Interface, error) {
	return newLock(lockType, ns, name, coordinationClient, rlc, nil)
}

// NewWithLabels is New whose lock also stamps labels onto the lock object
// whenever it writes it.
func NewWithLabels(lockType string, ns string, name string, coreClient corev1.CoreV1Interface, coordinationClient coordinationv1.CoordinationV1Interface, rlc ResourceLockConfig, labels map[string]string) (Interface, error) {
	return newLock(lockType, ns, name, coordinationClient, rlc, labels)
}

// NewFromKubeconfig builds its own clientset from kubeconfig and returns a
// lock of lockType. The client's request timeout is set to
// max(time.Second, renewDeadline/2) so that one hung request cannot use up a
// whole renew deadline. kubeconfig itself is not modified.
func NewFromKubeconfig(lockType string, ns string, name string, rlc ResourceLockConfig, kubeconfig *restclient.Config, renewDeadline time.Duration) (Interface, error) {
	if kubeconfig == nil {
		return nil, fmt.Errorf("resourcelock: kubeconfig must not be nil")
	}
	cfg := *kubeconfig
	cfg.Timeout = max(renewDeadline/2, time.Second)
	cs, err := clientset.NewForConfig(restclient.AddUserAgent(&cfg, "leader-election"))
	if err != nil {
		return nil, err
	}
	return New(lockType, ns, name, cs.CoreV1(), cs.CoordinationV1(), rlc)
}
