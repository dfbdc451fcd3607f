package resourcelock

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// MultiLock keeps the same record in two locks, Primary and Secondary.
//
// Deprecated: MultiLock served the migration from annotation locks to Lease
// locks, which ended when annotation locks were removed. Use LeaseLock.
type MultiLock struct {
	Primary   Interface
	Secondary Interface
}

// Describe names both locks.
func (ml *MultiLock) Describe() string {
	return fmt.Sprintf("%s, %s", ml.Primary.Describe(), ml.Secondary.Describe())
}

// Identity returns the primary lock's identity.
func (ml *MultiLock) Identity() string {
	return ml.Primary.Identity()
}

// Get returns the primary record. When the secondary lock is missing and
// the primary is held by someone else, the primary alone is returned; when
// the two disagree on the holder, the holder is reported as UnknownLeader.
// The raw record joins both raw records.
func (ml *MultiLock) Get(ctx context.Context) (*LeaderElectionRecord, []byte, error) {
	primary, primaryRaw, err := ml.Primary.Get(ctx)
	if err != nil {
		return nil, nil, err
	}
	secondary, secondaryRaw, err := ml.Secondary.Get(ctx)
	switch {
	case err == nil:
		return ml.merge(primary, primaryRaw, secondary, secondaryRaw)
	case apierrors.IsNotFound(err) && primary.HolderIdentity != ml.Identity():
		// Only a holder that knows nothing of the secondary lock wrote the
		// primary: its record stands alone.
		return primary, primaryRaw, nil
	default:
		return nil, nil, err
	}
}

// merge joins the records read from both locks. A holder they disagree on
// is unknown, and the primary's raw record is re-encoded to say so.
func (ml *MultiLock) merge(primary *LeaderElectionRecord, primaryRaw []byte, secondary *LeaderElectionRecord, secondaryRaw []byte) (*LeaderElectionRecord, []byte, error) {
	if primary.HolderIdentity == secondary.HolderIdentity {
		return primary, ConcatRawRecord(primaryRaw, secondaryRaw), nil
	}
	primary.HolderIdentity = UnknownLeader
	reencoded, err := json.Marshal(primary)
	if err != nil {
		return nil, nil, err
	}
	return primary, ConcatRawRecord(reencoded, secondaryRaw), nil
}

// Create creates both locks; a primary that already exists is not an error.
func (ml *MultiLock) Create(ctx context.Context, ler LeaderElectionRecord) error {
	if err := ml.Primary.Create(ctx, ler); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	return ml.Secondary.Create(ctx, ler)
}

// Update updates the primary lock, then updates the secondary lock, creating
// it when it does not exist.
func (ml *MultiLock) Update(ctx context.Context, ler LeaderElectionRecord) error {
	if err := ml.Primary.Update(ctx, ler); err != nil {
		return err
	}
	if _, _, err := ml.Secondary.Get(ctx); err != nil && apierrors.IsNotFound(err) {
		return ml.Secondary.Create(ctx, ler)
	}
	return ml.Secondary.Update(ctx, ler)
}

// RecordEvent records s on both locks.
func (ml *MultiLock) RecordEvent(s string) {
	ml.Primary.RecordEvent(s)
	ml.Secondary.RecordEvent(s)
}

const (
	// UnknownLeader is the holder MultiLock reports when its two locks
	// disagree.
	//
	// Deprecated: UnknownLeader is only used by MultiLock, which is deprecated.
	UnknownLeader = "leaderelection.k8s.io/unknown"
)

// ConcatRawRecord joins two raw records with a comma.
//
// Deprecated: ConcatRawRecord is only used by MultiLock, which is deprecated.
func ConcatRawRecord(primaryRaw, secondaryRaw []byte) []byte {
	return bytes.Join([][]byte{primaryRaw, secondaryRaw}, []byte(","))
}
