package sharding

import (
	"context"
	"strconv"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
)

// The member's reads and writes of the ring's Leases.

// write creates or renews this member's Lease with claims.
func (m *Member) write(ctx context.Context, now time.Time, claims slotSet) error {
	timeout := m.config.RenewDeadline
	if m.renewed {
		timeout = m.config.RenewDeadline - now.Sub(m.lastRenew)
	}
	if timeout <= 0 {
		timeout = m.config.RetryPeriod
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	name := m.config.Ring + "-" + m.config.Identity
	if m.lease == nil {
		got, err := m.leases.Get(ctx, name, metav1.GetOptions{})
		switch {
		case err == nil:
			m.lease = got
		case !apierrors.IsNotFound(err):
			return err
		}
	}
	lease := &coordinationv1.Lease{}
	if m.lease != nil {
		lease = m.lease.DeepCopy()
	}
	lease.Name = name
	lease.Namespace = m.config.Namespace
	if lease.Labels == nil {
		lease.Labels = map[string]string{}
	}
	lease.Labels[RingLabel] = m.config.Ring
	if lease.Annotations == nil {
		lease.Annotations = map[string]string{}
	}
	lease.Annotations[SlotsAnnotation] = strconv.Itoa(m.config.Slots)
	lease.Annotations[ClaimsAnnotation] = formatSlots(claims.sorted())
	identity := m.config.Identity
	seconds := int32((m.config.LeaseDuration + time.Second - 1) / time.Second)
	renew := metav1.NewMicroTime(now)
	lease.Spec.HolderIdentity = &identity
	lease.Spec.LeaseDurationSeconds = &seconds
	lease.Spec.RenewTime = &renew
	if lease.Spec.AcquireTime == nil {
		lease.Spec.AcquireTime = &renew
	}

	var stored *coordinationv1.Lease
	var err error
	if m.lease == nil {
		stored, err = m.leases.Create(ctx, lease, metav1.CreateOptions{})
	} else {
		stored, err = m.leases.Update(ctx, lease, metav1.UpdateOptions{})
	}
	if err != nil {
		if apierrors.IsNotFound(err) && m.lease != nil {
			// Someone deleted the Lease: the others no longer see this
			// member's claims and may start its slots now.
			klog.FromContext(ctx).Info("Member Lease deleted by someone else; stopping all work")
			m.setActive(ctx, slotSet{})
		}
		if apierrors.IsConflict(err) || apierrors.IsNotFound(err) || apierrors.IsAlreadyExists(err) {
			m.lease = nil // read it again next round
		}
		return err
	}
	m.lease = stored
	m.lastRenew = now
	m.renewed = true
	m.written = claims
	return nil
}

// read lists the ring's Leases and updates the view.
func (m *Member) read(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, m.config.RetryPeriod)
	defer cancel()
	list, err := m.leases.List(ctx, metav1.ListOptions{
		LabelSelector: labels.SelectorFromSet(labels.Set{RingLabel: m.config.Ring}).String(),
	})
	if err != nil {
		return err
	}
	now := m.clock.Now()
	seen := make(map[string]bool, len(list.Items))
	for i := range list.Items {
		l := &list.Items[i]
		if l.Spec.HolderIdentity == nil || *l.Spec.HolderIdentity == "" {
			continue
		}
		seen[l.Name] = true
		o := observe(l)
		if old, ok := m.view[l.Name]; ok && old.record == o.record {
			continue
		}
		o.seenAt = now
		if o.bad {
			klog.FromContext(ctx).Info("Member Lease has unreadable claims; treating it as claiming every slot", "lease", l.Name)
		}
		m.view[l.Name] = o
	}
	for name := range m.view {
		if !seen[name] {
			delete(m.view, name)
		}
	}
	m.listed = true
	return nil
}

// collect deletes the Leases of members that expired in this member's
// view, each under a precondition on the version judged, so that a member
// joining later does not wait a LeaseDuration for them to expire in its
// own view. A member that renews meanwhile keeps its Lease (the delete
// fails); one that comes back later writes a new one.
func (m *Member) collect(ctx context.Context, now time.Time) {
	ctx, cancel := context.WithTimeout(ctx, m.config.RetryPeriod)
	defer cancel()
	for name, o := range m.view {
		if o.identity == m.config.Identity || now.Sub(o.seenAt) < m.config.LeaseDuration {
			continue
		}
		uid, version := types.UID(o.uid), o.version
		err := m.leases.Delete(ctx, name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid, ResourceVersion: &version}})
		switch {
		case err == nil || apierrors.IsNotFound(err):
			klog.FromContext(ctx).V(2).Info("Deleted the Lease of an expired member", "lease", name, "member", o.identity)
			delete(m.view, name)
		case apierrors.IsConflict(err):
			// Renewed meanwhile: the next read sees it.
		default:
			klog.FromContext(ctx).V(2).Info("Could not delete the Lease of an expired member", "lease", name, "err", err)
		}
	}
}
