package leaderelection

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	rl "github.com/kubeclient/client-go/tools/leaderelection/resourcelock"
)

// LeaderElector runs one candidate's side of an election.
//
// Run's goroutine owns the election loop; IsLeader, GetLeader and Check may
// be called from any goroutine.
type LeaderElector struct {
	config LeaderElectionConfig

	// mu guards observedRecord and observedTime: the last record seen on
	// the server (or written by this elector) and when, on this elector's
	// clock, it was first seen. Expiry is judged from observedTime only.
	mu             sync.RWMutex
	observedRecord rl.LeaderElectionRecord
	observedTime   time.Time

	// observedRawRecord is the raw form of the last record read; only the
	// Run goroutine touches it.
	observedRawRecord []byte

	// reportedLeader is the leader last passed to OnNewLeader; only the Run
	// goroutine touches it.
	reportedLeader string

	clock   clock.Clock
	metrics leaderMetricsAdapter
}

// Run takes part in the election until ctx ends or, after winning,
// leadership is lost. OnStoppedLeading is always called before Run returns.
func (le *LeaderElector) Run(ctx context.Context) {
	defer utilruntime.HandleCrashWithContext(ctx)
	defer le.config.Callbacks.OnStoppedLeading()

	if !le.acquire(ctx) {
		return
	}
	leadingCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	go le.config.Callbacks.OnStartedLeading(leadingCtx)
	le.renew(leadingCtx)
}

// GetLeader returns the identity of the last observed leader, or "" when
// none has been observed.
func (le *LeaderElector) GetLeader() string {
	return le.getObservedRecord().HolderIdentity
}

// IsLeader reports whether the last observed leader is this elector.
func (le *LeaderElector) IsLeader() bool {
	return le.getObservedRecord().HolderIdentity == le.config.Lock.Identity()
}

// Check returns an error when this elector leads but its lease, as last
// observed, expired more than maxTolerableExpiredLease ago.
func (le *LeaderElector) Check(maxTolerableExpiredLease time.Duration) error {
	if !le.IsLeader() {
		return nil
	}
	le.mu.RLock()
	last := le.observedTime
	le.mu.RUnlock()
	if le.clock.Since(last) > le.config.LeaseDuration+maxTolerableExpiredLease {
		return fmt.Errorf("failed election to renew leadership on lease %s", le.config.Name)
	}
	return nil
}

// sleep waits d on the elector's clock. It returns false when ctx ended
// first.
func (le *LeaderElector) sleep(ctx context.Context, d time.Duration) bool {
	t := le.clock.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C():
		return true
	}
}

// attempt makes one acquire-or-renew attempt in the configured mode.
func (le *LeaderElector) attempt(ctx context.Context) bool {
	if le.config.Coordinated {
		return le.tryCoordinatedRenew(ctx)
	}
	return le.tryAcquireOrRenew(ctx)
}

// acquire retries every jittered RetryPeriod until the lock is won (true)
// or ctx ends (false).
func (le *LeaderElector) acquire(ctx context.Context) bool {
	logger := klog.FromContext(ctx)
	desc := le.config.Lock.Describe()
	logger.Info("Attempting to acquire leader lease...", "lock", desc)
	for ctx.Err() == nil {
		succeeded := le.attempt(ctx)
		le.maybeReportTransition()
		if succeeded {
			le.config.Lock.RecordEvent("became leader")
			le.metrics.leaderOn(le.config.Name)
			logger.Info("Successfully acquired lease", "lock", desc)
			return true
		}
		logger.V(4).Info("Failed to acquire lease", "lock", desc)
		wait := le.config.RetryPeriod + time.Duration(rand.Float64()*JitterFactor*float64(le.config.RetryPeriod))
		if d, ok := le.untilObservedExpiry(); ok && d < wait {
			// Try again right when the holder's lease runs out rather than
			// up to one jittered RetryPeriod later.
			wait = d
		}
		if !le.sleep(ctx, wait) {
			break
		}
	}
	return false
}

// renew keeps the lease renewed every RetryPeriod. A renewal that does not
// succeed within RenewDeadline (retrying every RetryPeriod) ends leadership.
// renew returns when leadership is lost or ctx ends; with ReleaseOnCancel
// it then gives the lock up.
func (le *LeaderElector) renew(ctx context.Context) {
	defer le.config.Lock.RecordEvent("stopped leading")
	logger := klog.FromContext(ctx)
	desc := le.config.Lock.Describe()
	// Whichever way leadership ends, the metric reports it off.
	defer le.metrics.leaderOff(le.config.Name)
	for ctx.Err() == nil {
		if err := le.renewWithinDeadline(ctx); err != nil {
			le.maybeReportTransition()
			if ctx.Err() == nil {
				logger.Info("Failed to renew lease", "lock", desc, "err", err)
			}
			break
		}
		le.maybeReportTransition()
		logger.V(5).Info("Successfully renewed lease", "lock", desc)
		if !le.sleep(ctx, le.config.RetryPeriod) {
			break
		}
	}
	if le.config.ReleaseOnCancel {
		le.release(logger)
	}
}

// renewWithinDeadline retries a renewal every RetryPeriod until it succeeds
// or RenewDeadline has passed on the elector's clock.
func (le *LeaderElector) renewWithinDeadline(ctx context.Context) error {
	start := le.clock.Now()
	reqCtx, cancel := context.WithTimeout(ctx, le.config.RenewDeadline)
	defer cancel()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if le.attempt(reqCtx) {
			return nil
		}
		remaining := le.config.RenewDeadline - le.clock.Since(start)
		if remaining <= 0 {
			return fmt.Errorf("renewal did not succeed within %v", le.config.RenewDeadline)
		}
		if !le.sleep(ctx, min(le.config.RetryPeriod, remaining)) {
			return ctx.Err()
		}
		if le.clock.Since(start) >= le.config.RenewDeadline {
			return fmt.Errorf("renewal did not succeed within %v", le.config.RenewDeadline)
		}
	}
}

// release clears the lock if this elector still holds it, retrying on
// conflicts until RenewDeadline passes.
func (le *LeaderElector) release(logger klog.Logger) bool {
	ctx, cancel := context.WithTimeout(klog.NewContext(context.Background(), logger), le.config.RenewDeadline)
	defer cancel()
	for {
		released, retry := le.tryRelease(ctx)
		if !retry || ctx.Err() != nil {
			return released
		}
	}
}

// tryRelease makes one release attempt; retry is true after a conflict.
func (le *LeaderElector) tryRelease(ctx context.Context) (released, retry bool) {
	logger := klog.FromContext(ctx)
	current, _, err := le.config.Lock.Get(ctx)
	if err != nil {
		if apierrors.IsNotFound(err) {
			logger.Info("Lease lock not found", "lock", le.config.Lock.Describe())
		} else {
			logger.Error(err, "Error retrieving lease lock", "lock", le.config.Lock.Describe())
		}
		return false, false
	}
	// Never clear a lock someone else has taken over meanwhile.
	if !le.IsLeader() || current.HolderIdentity != le.config.Lock.Identity() {
		return true, false
	}
	now := metav1.NewTime(le.clock.Now())
	record := rl.LeaderElectionRecord{
		LeaderTransitions:    current.LeaderTransitions,
		LeaseDurationSeconds: 1,
		RenewTime:            now,
		AcquireTime:          now,
	}
	if err := le.config.Lock.Update(ctx, record); err != nil {
		if apierrors.IsConflict(err) {
			logger.V(4).Info("Conflict when releasing lease, retrying", "lock", le.config.Lock.Describe())
			return false, true
		}
		logger.Error(err, "Failed to release lease", "lock", le.config.Lock.Describe())
		return false, false
	}
	le.setObservedRecord(&record)
	return true, false
}

// newRecord is the record this elector writes when it takes or renews the
// lock at now.
func (le *LeaderElector) newRecord(now metav1.Time) rl.LeaderElectionRecord {
	return rl.LeaderElectionRecord{
		HolderIdentity:       le.config.Lock.Identity(),
		LeaseDurationSeconds: int(le.config.LeaseDuration / time.Second),
		RenewTime:            now,
		AcquireTime:          now,
	}
}

// observe remembers a record read from the server. The observation time
// moves only when the record's raw form changed.
func (le *LeaderElector) observe(record *rl.LeaderElectionRecord, raw []byte) {
	if !bytes.Equal(le.observedRawRecord, raw) {
		le.setObservedRecord(record)
		le.observedRawRecord = raw
	}
}

// tryAcquireOrRenew makes one attempt to take or renew the lock and reports
// whether this elector holds it afterwards.
func (le *LeaderElector) tryAcquireOrRenew(ctx context.Context) bool {
	now := metav1.NewTime(le.clock.Now())
	record := le.newRecord(now)
	if le.IsLeader() && le.isLeaseValid(now.Time) && le.renewOptimistically(ctx, &record) {
		return true
	}

	// Slow path: read the lock, create it when missing, else decide from
	// what it holds.
	logger := klog.FromContext(ctx)
	current, raw, err := le.config.Lock.Get(ctx)
	switch {
	case apierrors.IsNotFound(err):
		return le.store(ctx, record, le.config.Lock.Create, "Error initially creating lease lock")
	case err != nil:
		logger.Error(err, "Error retrieving lease lock", "lock", le.config.Lock.Describe())
		return false
	}
	le.observe(current, raw)
	if current.HolderIdentity != "" && le.isLeaseValid(now.Time) && !le.IsLeader() {
		logger.V(4).Info("Lease is held and has not yet expired", "lock", le.config.Lock.Describe(), "holder", current.HolderIdentity)
		return false
	}
	// A renewal keeps the acquisition; a takeover is one more transition.
	if le.IsLeader() {
		record.AcquireTime, record.LeaderTransitions = current.AcquireTime, current.LeaderTransitions
		le.metrics.slowpathExercised(le.config.Name)
	} else {
		record.LeaderTransitions = current.LeaderTransitions + 1
	}
	return le.store(ctx, record, le.config.Lock.Update, "Failed to update lease")
}

// renewOptimistically is the fast path of a leader whose lease is still
// valid: it writes record, with the acquisition of the record last observed,
// straight over that version. False sends the caller to the slow path; record
// keeps the acquisition either way.
func (le *LeaderElector) renewOptimistically(ctx context.Context, record *rl.LeaderElectionRecord) bool {
	old := le.getObservedRecord()
	record.AcquireTime, record.LeaderTransitions = old.AcquireTime, old.LeaderTransitions
	if err := le.config.Lock.Update(ctx, *record); err != nil {
		klog.FromContext(ctx).V(2).Info("Failed to update lease optimistically, falling back to slow path", "lock", le.config.Lock.Describe(), "err", err)
		return false
	}
	le.setObservedRecord(record)
	return true
}

// store writes record through write (the lock's Create or Update) and, when
// that succeeds, makes it the observed record. failure is the log message
// of a failed write.
func (le *LeaderElector) store(ctx context.Context, record rl.LeaderElectionRecord, write func(context.Context, rl.LeaderElectionRecord) error, failure string) bool {
	if err := write(ctx, record); err != nil {
		klog.FromContext(ctx).Error(err, failure, "lock", le.config.Lock.Describe())
		return false
	}
	le.setObservedRecord(&record)
	return true
}

// tryCoordinatedRenew renews a lease the API server's coordinated election
// assigned to this elector. It never creates or takes over a lease, and it
// stops renewing once the lease names another preferred holder.
func (le *LeaderElector) tryCoordinatedRenew(ctx context.Context) bool {
	logger := klog.FromContext(ctx)
	now := metav1.NewTime(le.clock.Now())
	record := le.newRecord(now)

	current, raw, err := le.config.Lock.Get(ctx)
	if err != nil {
		if apierrors.IsNotFound(err) {
			logger.Info("Lease lock not found", "lock", le.config.Lock.Describe(), "err", err)
		} else {
			logger.Error(err, "Error retrieving lease lock", "lock", le.config.Lock.Describe())
		}
		return false
	}
	le.observe(current, raw)

	le.mu.RLock()
	observedAt := le.observedTime
	le.mu.RUnlock()
	if observedAt.Add(time.Second * time.Duration(current.LeaseDurationSeconds)).Before(now.Time) {
		logger.Info("Lease has expired", "lock", le.config.Lock.Describe())
		return false
	}
	if !le.IsLeader() {
		logger.V(6).Info("Lease is held and has not yet expired", "lock", le.config.Lock.Describe(), "holder", current.HolderIdentity)
		return false
	}
	if current.PreferredHolder != "" {
		// The server marked the end of this term; let the lease lapse.
		logger.V(4).Info("Lease is marked as 'end of term'", "lock", le.config.Lock.Describe())
		return false
	}

	record.AcquireTime = current.AcquireTime
	record.LeaderTransitions = current.LeaderTransitions
	record.Strategy = current.Strategy
	le.metrics.slowpathExercised(le.config.Name)
	if err := le.config.Lock.Update(ctx, record); err != nil {
		logger.Error(err, "Failed to update lock", "lock", le.config.Lock.Describe())
		return false
	}
	le.setObservedRecord(&record)
	return true
}

// maybeReportTransition calls OnNewLeader when the observed holder changed
// since the last report.
func (le *LeaderElector) maybeReportTransition() {
	holder := le.getObservedRecord().HolderIdentity
	if holder == le.reportedLeader {
		return
	}
	le.reportedLeader = holder
	if le.config.Callbacks.OnNewLeader != nil {
		go le.config.Callbacks.OnNewLeader(holder)
	}
}

// isLeaseValid reports whether the observed lease is still valid at now,
// judged from when this elector observed it.
func (le *LeaderElector) isLeaseValid(now time.Time) bool {
	le.mu.RLock()
	defer le.mu.RUnlock()
	return le.observedTime.Add(time.Second * time.Duration(le.observedRecord.LeaseDurationSeconds)).After(now)
}

// untilObservedExpiry returns how long, on the elector's clock, until the
// lease another elector holds expires as judged by isLeaseValid (plus a
// millisecond, so that it has expired by then). ok is false when no one else
// holds it or it has expired already.
func (le *LeaderElector) untilObservedExpiry() (d time.Duration, ok bool) {
	le.mu.RLock()
	defer le.mu.RUnlock()
	r := le.observedRecord
	if r.HolderIdentity == "" || r.HolderIdentity == le.config.Lock.Identity() || r.LeaseDurationSeconds <= 0 {
		return 0, false
	}
	expiry := le.observedTime.Add(time.Duration(r.LeaseDurationSeconds) * time.Second)
	d = expiry.Sub(le.clock.Now())
	if d < 0 {
		return 0, false
	}
	return d + time.Millisecond, true
}

// setObservedRecord stores record as observed now.
func (le *LeaderElector) setObservedRecord(record *rl.LeaderElectionRecord) {
	le.mu.Lock()
	defer le.mu.Unlock()
	le.observedRecord = *record
	le.observedTime = le.clock.Now()
}

func (le *LeaderElector) getObservedRecord() rl.LeaderElectionRecord {
	le.mu.RLock()
	defer le.mu.RUnlock()
	return le.observedRecord
}
