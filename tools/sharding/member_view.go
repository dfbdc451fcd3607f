package sharding

import (
	"strconv"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
)

// A member's view of the ring: what it last saw of each member's Lease,
// and what follows from it for this member's slots.

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
