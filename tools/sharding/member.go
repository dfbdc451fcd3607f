package sharding

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
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

// Defaults of MemberConfig's durations, those of leader election.
const (
	DefaultLeaseDuration = 15 * time.Second
	DefaultRenewDeadline = 10 * time.Second
	DefaultRetryPeriod   = 2 * time.Second
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

// MemberConfig configures a Member.
type MemberConfig struct {
	// Client reads and writes the ring's Leases.
	Client coordinationclient.LeasesGetter
	// Namespace holds the Leases.
	Namespace string
	// Ring names the ring: the members of one ring divide one hash space.
	// Each member's Lease is named Ring-Identity and labelled RingLabel=Ring.
	Ring string
	// Identity names this member; unique in the ring and stable for a
	// process's life (a pod name).
	Identity string
	// Key is the object field hashed: KeyUID (the default) or KeyNamespace.
	Key Key
	// Slots is the number of equal slots the hash space is cut into, the
	// unit of assignment and hand-over; every member of a ring must use the
	// same. Zero means DefaultSlots.
	Slots int

	// LeaseDuration is how long, on an observer's clock, a member's Lease
	// must stay unchanged before the member counts as gone. RenewDeadline
	// is how long a member goes on working without a successful renewal;
	// it must be shorter, and the difference bounds how long a member may
	// take to stop its work. RetryPeriod is the period of the loop. Zero
	// means the defaults.
	LeaseDuration time.Duration
	RenewDeadline time.Duration
	RetryPeriod   time.Duration

	// OnShardChange is called, from Run's goroutine, every time the set of
	// slots this member may work on changes. It must return only when no
	// work on a slot absent from the new Shard is running any more, and
	// none can start; it may start work on new slots in the background.
	OnShardChange func(ctx context.Context, s Shard)

	// Clock drives the loop and judges expiry; nil means the real clock.
	Clock clock.Clock
}

func (c *MemberConfig) complete() error {
	if c.Client == nil || c.Namespace == "" || c.Ring == "" || c.Identity == "" {
		return fmt.Errorf("sharding: Client, Namespace, Ring and Identity are required")
	}
	if c.OnShardChange == nil {
		return fmt.Errorf("sharding: OnShardChange is required")
	}
	if c.Key == "" {
		c.Key = KeyUID
	}
	if !c.Key.Valid() {
		return fmt.Errorf("sharding: unsupported key %q", c.Key)
	}
	if c.Slots == 0 {
		c.Slots = DefaultSlots
	}
	if c.Slots < 0 {
		return fmt.Errorf("sharding: Slots must be positive")
	}
	if c.LeaseDuration == 0 {
		c.LeaseDuration = DefaultLeaseDuration
	}
	if c.RenewDeadline == 0 {
		c.RenewDeadline = DefaultRenewDeadline
	}
	if c.RetryPeriod == 0 {
		c.RetryPeriod = DefaultRetryPeriod
	}
	if c.RenewDeadline >= c.LeaseDuration || c.RetryPeriod >= c.RenewDeadline || c.RetryPeriod <= 0 {
		return fmt.Errorf("sharding: need 0 < RetryPeriod < RenewDeadline < LeaseDuration")
	}
	if c.Clock == nil {
		c.Clock = clock.RealClock{}
	}
	return nil
}

// UnownedBound is the longest a slot stays without a working member after
// its owner dies without releasing it, measured on the clock of the member
// that takes it over, up to the moment OnShardChange hands it over:
// LeaseDuration to see the dead Lease expire, one RetryPeriod for the
// gainer's list to see the last renewal, one for the gainer's next round.
// Hand-over between live members (join, clean leave) takes at most three
// RetryPeriods plus the loser's drain.
func (c MemberConfig) UnownedBound() time.Duration {
	return c.LeaseDuration + 2*c.RetryPeriod
}

// observation is what this member last saw of another member's Lease and
// when, on this member's clock, it first saw it.
type observation struct {
	name     string // of the Lease
	uid      string
	version  string // resourceVersion
	identity string
	record   string // resourceVersion, renew time and claims: changes on every write
	seenAt   time.Time
	total    int
	claims   slotSet // nil when bad
	bad      bool    // claims unreadable: treated as claiming every slot
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

// live returns the observations of the other members whose Leases are
// not expired at now.
func (m *Member) live(now time.Time) []*observation {
	var out []*observation
	for _, o := range m.view {
		if o.identity == m.config.Identity {
			continue
		}
		if now.Sub(o.seenAt) < m.config.LeaseDuration {
			out = append(out, o)
		}
	}
	return out
}

// desired returns this member's slots under the assignment of the live
// members seen plus itself, or none when a live member uses another slot
// count (the ring is misconfigured: taking nothing is the safe answer).
func (m *Member) desired(now time.Time) slotSet {
	names := []string{m.config.Identity}
	for _, o := range m.live(now) {
		if o.total != m.config.Slots {
			return slotSet{}
		}
		names = append(names, o.identity)
	}
	return newSlotSet(Assign(names, m.config.Slots).SlotsOf(m.config.Identity))
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

// claimedByOthers returns the slots claimed by live members other than
// this one; unreadable claims count as every slot.
func (m *Member) claimedByOthers(now time.Time) slotSet {
	out := slotSet{}
	for _, o := range m.live(now) {
		if o.bad || o.total != m.config.Slots {
			for s := 0; s < m.config.Slots; s++ {
				out[s] = struct{}{}
			}
			return out
		}
		for s := range o.claims {
			out[s] = struct{}{}
		}
	}
	return out
}

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

// observe reads a member Lease.
func observe(l *coordinationv1.Lease) *observation {
	o := &observation{name: l.Name, uid: string(l.UID), version: l.ResourceVersion, identity: *l.Spec.HolderIdentity}
	var renew string
	if l.Spec.RenewTime != nil {
		renew = l.Spec.RenewTime.UTC().Format(time.RFC3339Nano)
	}
	claims := l.Annotations[ClaimsAnnotation]
	o.record = l.ResourceVersion + "|" + renew + "|" + l.Annotations[SlotsAnnotation] + "|" + claims
	total, err := strconv.Atoi(l.Annotations[SlotsAnnotation])
	if err != nil || total <= 0 {
		o.bad = true
		return o
	}
	o.total = total
	slots, err := parseSlots(claims, total)
	if err != nil {
		o.bad = true
		return o
	}
	o.claims = newSlotSet(slots)
	return o
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
