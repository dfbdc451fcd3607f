package resourcelock

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"sync"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	coordinationv1client "github.com/kubeclient/client-go/kubernetes/typed/coordination/v1"
)

// LeaseLock stores the election record in the spec of a
// coordination.k8s.io/v1 Lease.
type LeaseLock struct {
	// LeaseMeta names (Namespace and Name) the Lease to lead.
	LeaseMeta  metav1.ObjectMeta
	Client     coordinationv1client.LeasesGetter
	LockConfig ResourceLockConfig

	// Labels, when set, are merged into the Lease's labels on every write.
	Labels map[string]string

	// mu guards lease, the last Lease read from or written to the server;
	// its resourceVersion makes Update an optimistic compare-and-swap.
	mu    sync.Mutex
	lease *coordinationv1.Lease
}

func (ll *LeaseLock) setLease(lease *coordinationv1.Lease) {
	ll.mu.Lock()
	ll.lease = lease
	ll.mu.Unlock()
}

// Get reads the Lease and returns its record and the record's JSON form.
func (ll *LeaseLock) Get(ctx context.Context) (*LeaderElectionRecord, []byte, error) {
	lease, err := ll.Client.Leases(ll.LeaseMeta.Namespace).Get(ctx, ll.LeaseMeta.Name, metav1.GetOptions{})
	if err != nil {
		return nil, nil, err
	}
	ll.setLease(lease)
	record := LeaseSpecToLeaderElectionRecord(&lease.Spec)
	raw, err := json.Marshal(*record)
	if err != nil {
		return nil, nil, err
	}
	return record, raw, nil
}

// Create creates the Lease holding ler.
func (ll *LeaseLock) Create(ctx context.Context, ler LeaderElectionRecord) error {
	lease := &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{
			Name:      ll.LeaseMeta.Name,
			Namespace: ll.LeaseMeta.Namespace,
			Labels:    maps.Clone(ll.Labels),
		},
		Spec: LeaderElectionRecordToLeaseSpec(&ler),
	}
	created, err := ll.Client.Leases(ll.LeaseMeta.Namespace).Create(ctx, lease, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	ll.setLease(created)
	return nil
}

// Update writes ler over the Lease last read or created. It fails with a
// conflict when the Lease changed on the server since then.
func (ll *LeaseLock) Update(ctx context.Context, ler LeaderElectionRecord) error {
	ll.mu.Lock()
	if ll.lease == nil {
		ll.mu.Unlock()
		return errors.New("lease not initialized, call get or create first")
	}
	lease := ll.lease.DeepCopy()
	ll.mu.Unlock()

	lease.Spec = LeaderElectionRecordToLeaseSpec(&ler)
	if ll.Labels != nil {
		if lease.Labels == nil {
			lease.Labels = make(map[string]string, len(ll.Labels))
		}
		maps.Copy(lease.Labels, ll.Labels)
	}
	updated, err := ll.Client.Leases(ll.LeaseMeta.Namespace).Update(ctx, lease, metav1.UpdateOptions{})
	if err != nil {
		return err
	}
	ll.setLease(updated)
	return nil
}

// RecordEvent reports s, prefixed with this participant's identity, as a
// Normal "LeaderElection" event about the Lease.
func (ll *LeaseLock) RecordEvent(s string) {
	if ll.LockConfig.EventRecorder == nil {
		return
	}
	subject := &coordinationv1.Lease{}
	ll.mu.Lock()
	if ll.lease != nil {
		subject.ObjectMeta = *ll.lease.ObjectMeta.DeepCopy()
	} else {
		subject.ObjectMeta = *ll.LeaseMeta.DeepCopy()
	}
	ll.mu.Unlock()
	// Set the type meta here so the recorder needs no scheme lookup.
	subject.Kind = "Lease"
	subject.APIVersion = coordinationv1.SchemeGroupVersion.String()
	ll.LockConfig.EventRecorder.Eventf(subject, corev1.EventTypeNormal, "LeaderElection", "%s", fmt.Sprintf("%v %v", ll.LockConfig.Identity, s))
}

// Describe returns "namespace/name" of the Lease.
func (ll *LeaseLock) Describe() string {
	return fmt.Sprintf("%v/%v", ll.LeaseMeta.Namespace, ll.LeaseMeta.Name)
}

// Identity returns the identity of this participant.
func (ll *LeaseLock) Identity() string {
	return ll.LockConfig.Identity
}

// LeaseSpecToLeaderElectionRecord converts a Lease spec to an election
// record; unset fields become zero values.
func LeaseSpecToLeaderElectionRecord(spec *coordinationv1.LeaseSpec) *LeaderElectionRecord {
	if spec == nil {
		return &LeaderElectionRecord{}
	}
	return &LeaderElectionRecord{
		HolderIdentity:       valueOf(spec.HolderIdentity),
		LeaseDurationSeconds: int(valueOf(spec.LeaseDurationSeconds)),
		LeaderTransitions:    int(valueOf(spec.LeaseTransitions)),
		AcquireTime:          metav1.Time{Time: valueOf(spec.AcquireTime).Time},
		RenewTime:            metav1.Time{Time: valueOf(spec.RenewTime).Time},
		PreferredHolder:      valueOf(spec.PreferredHolder),
		Strategy:             valueOf(spec.Strategy),
	}
}

// valueOf returns *p, or the zero value when p is nil.
func valueOf[V any](p *V) V {
	if p == nil {
		var zero V
		return zero
	}
	return *p
}

// LeaderElectionRecordToLeaseSpec converts an election record to a Lease
// spec. PreferredHolder and Strategy are set only when non-empty.
func LeaderElectionRecordToLeaseSpec(ler *LeaderElectionRecord) coordinationv1.LeaseSpec {
	holder := ler.HolderIdentity
	duration := int32(ler.LeaseDurationSeconds)
	transitions := int32(ler.LeaderTransitions)
	spec := coordinationv1.LeaseSpec{
		HolderIdentity:       &holder,
		LeaseDurationSeconds: &duration,
		AcquireTime:          &metav1.MicroTime{Time: ler.AcquireTime.Time},
		RenewTime:            &metav1.MicroTime{Time: ler.RenewTime.Time},
		LeaseTransitions:     &transitions,
	}
	if ler.PreferredHolder != "" {
		preferred := ler.PreferredHolder
		spec.PreferredHolder = &preferred
	}
	if ler.Strategy != "" {
		strategy := ler.Strategy
		spec.Strategy = &strategy
	}
	return spec
}
