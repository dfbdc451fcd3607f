package resourcelock

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/rest"
)

func TestRecordLeaseSpecRoundTrip(t *testing.T) {
	now := metav1.NewTime(time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC))
	tests := []LeaderElectionRecord{
		{},
		{HolderIdentity: "a", LeaseDurationSeconds: 15, AcquireTime: now, RenewTime: now, LeaderTransitions: 3},
		{HolderIdentity: "b", Strategy: coordinationv1.OldestEmulationVersion, PreferredHolder: "c"},
	}
	for i, rec := range tests {
		spec := LeaderElectionRecordToLeaseSpec(&rec)
		if (spec.PreferredHolder != nil) != (rec.PreferredHolder != "") || (spec.Strategy != nil) != (rec.Strategy != "") {
			t.Errorf("%d: optional fields set wrongly in %+v", i, spec)
		}
		got := LeaseSpecToLeaderElectionRecord(&spec)
		gotJSON, _ := json.Marshal(got)
		wantJSON, _ := json.Marshal(rec)
		if string(gotJSON) != string(wantJSON) {
			t.Errorf("%d: round trip gave %+v, want %+v", i, *got, rec)
		}
	}
	if got := LeaseSpecToLeaderElectionRecord(&coordinationv1.LeaseSpec{}); *got != (LeaderElectionRecord{}) {
		t.Errorf("empty spec gave %+v", *got)
	}
}

func TestNewLockTypes(t *testing.T) {
	for _, tc := range []struct{ lockType, want string }{
		{"endpoints", "endpoints lock is removed, migrate to leases"},
		{"configmaps", "configmaps lock is removed, migrate to leases"},
		{"endpointsleases", "endpointsleases lock is removed, migrate to leases"},
		{"configmapsleases", "configmapsleases lock is removed, migrated to leases"},
		{"bogus", "Invalid lock-type bogus"},
	} {
		if _, err := New(tc.lockType, "ns", "n", nil, nil, ResourceLockConfig{}); err == nil || err.Error() != tc.want {
			t.Errorf("New(%q) error = %v, want %q", tc.lockType, err, tc.want)
		}
	}
	cfg := &rest.Config{Host: "http://127.0.0.1:1"}
	l, err := NewFromKubeconfig(LeasesResourceLock, "ns", "n", ResourceLockConfig{Identity: "me"}, cfg, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if l.Identity() != "me" || l.Describe() != "ns/n" {
		t.Errorf("Identity()=%q Describe()=%q", l.Identity(), l.Describe())
	}
	if cfg.Timeout != 0 || cfg.UserAgent != "" {
		t.Error("NewFromKubeconfig modified the caller's config")
	}
}

type eventCapture struct {
	obj  runtime.Object
	line string
}

func (c *eventCapture) Eventf(obj runtime.Object, eventType, reason, message string, args ...interface{}) {
	c.obj = obj
	c.line = eventType + " " + reason + " " + fmt.Sprintf(message, args...)
}

// leaseAPI serves one Lease with resourceVersion checks.
func leaseAPI(t *testing.T) (*httptest.Server, *[]string) {
	var stored *coordinationv1.Lease
	var log []string
	rv := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log = append(log, r.Method)
		w.Header().Set("Content-Type", "application/json")
		fail := func(err *apierrors.StatusError) {
			st := err.ErrStatus
			st.Kind, st.APIVersion = "Status", "v1"
			w.WriteHeader(int(st.Code))
			_ = json.NewEncoder(w).Encode(st)
		}
		gr := schema.GroupResource{Group: "coordination.k8s.io", Resource: "leases"}
		switch r.Method {
		case http.MethodGet:
			if stored == nil {
				fail(apierrors.NewNotFound(gr, "n"))
				return
			}
		case http.MethodPost, http.MethodPut:
			var in coordinationv1.Lease
			_ = json.NewDecoder(r.Body).Decode(&in)
			if r.Method == http.MethodPut && in.ResourceVersion != stored.ResourceVersion {
				fail(apierrors.NewConflict(gr, "n", errors.New("stale")))
				return
			}
			rv++
			in.ResourceVersion = fmt.Sprint(rv)
			stored = &in
		}
		_ = json.NewEncoder(w).Encode(stored)
	}))
	t.Cleanup(srv.Close)
	return srv, &log
}

func TestLeaseLockAgainstServer(t *testing.T) {
	srv, _ := leaseAPI(t)
	rec := &eventCapture{}
	l, err := NewWithLabels(LeasesResourceLock, "ns", "n", nil, nil, ResourceLockConfig{Identity: "me", EventRecorder: rec}, map[string]string{"app": "x"})
	if err == nil {
		t.Fatal("a lease lock without a coordination client was accepted")
	}
	cfg := &rest.Config{Host: srv.URL, ContentConfig: rest.ContentConfig{ContentType: "application/json"}}
	l, err = NewFromKubeconfig(LeasesResourceLock, "ns", "n", ResourceLockConfig{Identity: "me", EventRecorder: rec}, cfg, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	ll := l.(*LeaseLock)
	ll.Labels = map[string]string{"app": "x"}
	ctx := context.Background()
	if err := ll.Update(ctx, LeaderElectionRecord{}); err == nil || !strings.Contains(err.Error(), "lease not initialized") {
		t.Fatalf("Update before Get/Create = %v", err)
	}
	if _, _, err := ll.Get(ctx); !apierrors.IsNotFound(err) {
		t.Fatalf("Get of a missing lease = %v, want NotFound", err)
	}
	if err := ll.Create(ctx, LeaderElectionRecord{HolderIdentity: "me", LeaseDurationSeconds: 15}); err != nil {
		t.Fatal(err)
	}
	got, raw, err := ll.Get(ctx)
	if err != nil || got.HolderIdentity != "me" || got.LeaseDurationSeconds != 15 {
		t.Fatalf("Get = %+v, %v", got, err)
	}
	var decoded LeaderElectionRecord
	if err := json.Unmarshal(raw, &decoded); err != nil || decoded.HolderIdentity != "me" {
		t.Fatalf("raw record %s does not decode to the record: %v", raw, err)
	}
	if err := ll.Update(ctx, LeaderElectionRecord{HolderIdentity: "me", LeaderTransitions: 1}); err != nil {
		t.Fatal(err)
	}
	if ll.lease.Labels["app"] != "x" {
		t.Errorf("labels not applied: %v", ll.lease.Labels)
	}
	ll.RecordEvent("became leader")
	lease, ok := rec.obj.(*coordinationv1.Lease)
	if !ok || lease.Kind != "Lease" || lease.APIVersion != "coordination.k8s.io/v1" || lease.Name != "n" {
		t.Errorf("event subject %#v", rec.obj)
	}
	if rec.line != "Normal LeaderElection me became leader" {
		t.Errorf("event %q", rec.line)
	}
	// A stale copy conflicts.
	ll.lease.ResourceVersion = "1"
	if err := ll.Update(ctx, LeaderElectionRecord{HolderIdentity: "me"}); !apierrors.IsConflict(err) {
		t.Errorf("stale Update = %v, want Conflict", err)
	}
}

// memLock is an in-memory Interface.
type memLock struct {
	id  string
	rec *LeaderElectionRecord
}

func (m *memLock) Get(context.Context) (*LeaderElectionRecord, []byte, error) {
	if m.rec == nil {
		return nil, nil, apierrors.NewNotFound(schema.GroupResource{Resource: "leases"}, m.id)
	}
	r := *m.rec
	raw, _ := json.Marshal(r)
	return &r, raw, nil
}
func (m *memLock) Create(_ context.Context, r LeaderElectionRecord) error { m.rec = &r; return nil }
func (m *memLock) Update(_ context.Context, r LeaderElectionRecord) error { m.rec = &r; return nil }
func (m *memLock) RecordEvent(string)                                     {}
func (m *memLock) Identity() string                                       { return m.id }
func (m *memLock) Describe() string                                       { return "mem/" + m.id }

func TestMultiLock(t *testing.T) {
	ctx := context.Background()
	p, s := &memLock{id: "me"}, &memLock{id: "me2"}
	ml := &MultiLock{Primary: p, Secondary: s}
	if ml.Identity() != "me" || ml.Describe() != "mem/me, mem/me2" {
		t.Errorf("Identity()=%q Describe()=%q", ml.Identity(), ml.Describe())
	}
	p.rec = &LeaderElectionRecord{HolderIdentity: "other"}
	if got, _, err := ml.Get(ctx); err != nil || got.HolderIdentity != "other" {
		t.Errorf("Get with missing secondary = %+v, %v", got, err)
	}
	if err := ml.Update(ctx, LeaderElectionRecord{HolderIdentity: "me"}); err != nil || s.rec == nil {
		t.Fatalf("Update did not create the secondary: %v", err)
	}
	s.rec.HolderIdentity = "x"
	got, raw, err := ml.Get(ctx)
	if err != nil || got.HolderIdentity != UnknownLeader || !strings.Contains(string(raw), "},{") {
		t.Errorf("disagreeing locks: %+v %s %v", got, raw, err)
	}
	if string(ConcatRawRecord([]byte("a"), []byte("b"))) != "a,b" {
		t.Error("ConcatRawRecord")
	}
}
