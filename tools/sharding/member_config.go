package sharding

import (
	"context"
	"fmt"
	"time"

	"k8s.io/utils/clock"

	coordinationclient "github.com/kubeclient/client-go/kubernetes/typed/coordination/v1"
)

// Defaults of MemberConfig's durations, those of leader election.
const (
	DefaultLeaseDuration = 15 * time.Second
	DefaultRenewDeadline = 10 * time.Second
	DefaultRetryPeriod   = 2 * time.Second
)

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
