package sharding

import (
	"context"
	"slices"
	"sync"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	coordinationclient "github.com/kubeclient/client-go/kubernetes/typed/coordination/v1"
)

// Labels and annotations of a member's Lease.
const (
	// RingLabel carries the ring name on every member Lease.
	RingLabel = "sharding.kubeclient.io/ring"
	// SlotsAnnotation carries the ring's number of slots, so members
	// configured differently notice.
	SlotsAnnotation = "sharding.kubeclient.io/slots"
	// ClaimsAnnotation lists the slots the member claims ("0-3,7"): every
	// slot it works on, and the ones it is about to start.
	ClaimsAnnotation = "sharding.kubeclient.io/claims"
)

// Shard is the part of the hash space a member works on.
type Shard struct {
	// Slots are the member's active slots, ascending.
	Slots []int
	// Total is the ring's number of slots.
	Total int
	// Selector selects the active slots' objects; empty when Slots is.
	Selector Selector
}

// Member is one replica's side of a ring: it holds a Lease, reads the
// other members' Leases every round, and tells OnShardChange which slots
// it may work on. See the package documentation for the protocol.
//
// Run's goroutine runs the rounds and alone touches the fields marked
// "Owned by Run's goroutine"; mu guards only status, the snapshot Status
// returns.
type Member struct {
	config MemberConfig
	clock  clock.Clock
	leases coordinationclient.LeaseInterface

	// Owned by Run's goroutine.
	lease     *coordinationv1.Lease   // last Lease read or written, nil before
	lastRenew time.Time               // send time of the last successful write
	renewed   bool                    // lastRenew is set
	listed    bool                    // the ring has been read at least once
	view      map[string]*observation // Lease name -> observation
	written   slotSet                 // claims stored by the last successful write
	active    slotSet                 // slots handed to OnShardChange

	mu     sync.Mutex
	status Status
}

// Status is a snapshot of a member's view.
type Status struct {
	// Members are the live members this member sees, itself included once
	// its Lease is written, sorted.
	Members []string
	// Active are the slots this member works on.
	Active []int
	// Claims are the slots its Lease claims.
	Claims []int
}

// NewMember validates config and returns a member that has not joined yet.
func NewMember(config MemberConfig) (*Member, error) {
	if err := config.complete(); err != nil {
		return nil, err
	}
	return &Member{
		config: config,
		clock:  config.Clock,
		leases: config.Client.Leases(config.Namespace),
		view:   map[string]*observation{},
		active: slotSet{},
	}, nil
}

// Status returns what the member saw at the end of its last round.
func (m *Member) Status() Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.status
	s.Members = slices.Clone(s.Members)
	s.Active = slices.Clone(s.Active)
	s.Claims = slices.Clone(s.Claims)
	return s
}

// Run takes part in the ring until ctx ends. It then stops all work
// (OnShardChange with no slots) and deletes its Lease, so the others take
// its slots within a RetryPeriod or two. A process that dies without
// returning from Run leaves its Lease to expire.
func (m *Member) Run(ctx context.Context) {
	defer utilruntime.HandleCrashWithContext(ctx)
	logger := klog.FromContext(ctx).WithValues("ring", m.config.Ring, "member", m.config.Identity)
	ctx = klog.NewContext(ctx, logger)
	for {
		wait := m.tick(ctx)
		if ctx.Err() != nil {
			break
		}
		t := m.clock.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
		case <-t.C():
		}
		if ctx.Err() != nil {
			break
		}
	}
	m.leave(context.WithoutCancel(ctx))
}

// leave stops all work and deletes the Lease.
func (m *Member) leave(ctx context.Context) {
	m.setActive(ctx, slotSet{})
	if m.lease == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, m.config.RetryPeriod)
	defer cancel()
	uid := m.lease.UID
	err := m.leases.Delete(ctx, m.lease.Name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}})
	if err != nil && !apierrors.IsNotFound(err) {
		klog.FromContext(ctx).Info("Could not delete the member Lease; the others wait for it to expire", "err", err)
	}
}

// tick runs one round and returns how long to wait for the next.
//
// A round: stop everything if the Lease could not be renewed within
// RenewDeadline; compute this member's slots from the live members seen;
// drop active slots that are no longer its own; write the Lease, claiming
// exactly those slots; read the ring; start the claimed slots that no other
// live member claims.
func (m *Member) tick(ctx context.Context) time.Duration {
	logger := klog.FromContext(ctx)
	now := m.clock.Now()
	if m.renewed && now.Sub(m.lastRenew) >= m.config.RenewDeadline && len(m.active) > 0 {
		logger.Info("Lease not renewed within the renew deadline; stopping all work", "lastRenew", m.lastRenew)
		m.setActive(ctx, slotSet{})
	}

	var desired slotSet
	if m.listed {
		desired = m.desired(now)
	} else {
		desired = slotSet{}
	}
	m.setActive(ctx, intersect(m.active, desired))

	if err := m.write(ctx, now, desired); err != nil {
		logger.V(2).Info("Could not renew the member Lease", "err", err)
		m.publish()
		return m.nextWait()
	}
	if err := m.read(ctx); err != nil {
		logger.V(2).Info("Could not read the ring", "err", err)
		m.publish()
		return m.nextWait()
	}

	now = m.clock.Now()
	m.collect(ctx, now)
	if now.Sub(m.lastRenew) >= m.config.RenewDeadline {
		m.publish()
		return m.nextWait()
	}
	desired = m.desired(now)
	next := intersect(m.active, desired)
	contested := m.claimedByOthers(now)
	for s := range m.written {
		if desired.has(s) && !contested.has(s) {
			next[s] = struct{}{}
		}
	}
	m.setActive(ctx, next)
	m.publish()
	return m.nextWait()
}

// nextWait is RetryPeriod, or less when the renew deadline comes first
// while slots are active.
func (m *Member) nextWait() time.Duration {
	wait := m.config.RetryPeriod
	if m.renewed && len(m.active) > 0 {
		if left := m.config.RenewDeadline - m.clock.Since(m.lastRenew); left < wait {
			wait = max(left, 0)
		}
	}
	return wait
}

// setActive hands next to OnShardChange when it differs from the active
// slots.
func (m *Member) setActive(ctx context.Context, next slotSet) {
	if next.equal(m.active) {
		return
	}
	slots := next.sorted()
	shard := Shard{Slots: slots, Total: m.config.Slots}
	if len(slots) > 0 {
		shard.Selector = SlotsSelector(m.config.Key, slots, m.config.Slots)
	}
	m.config.OnShardChange(ctx, shard)
	m.active = next
	m.publish()
}

// publish copies the loop's state into the status snapshot.
func (m *Member) publish() {
	now := m.clock.Now()
	var members []string
	if m.renewed {
		members = append(members, m.config.Identity)
	}
	for _, o := range m.live(now) {
		members = append(members, o.identity)
	}
	slices.Sort(members)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.status = Status{Members: slices.Compact(members), Active: m.active.sorted(), Claims: m.written.sorted()}
}

func intersect(a, b slotSet) slotSet {
	out := slotSet{}
	for v := range a {
		if b.has(v) {
			out[v] = struct{}{}
		}
	}
	return out
}
