package cache

import (
	"errors"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
)

// popFIFO pops everything a FIFO holds and names each pop "name@rv".
func popFIFO(t *testing.T, f *FIFO) []string {
	t.Helper()
	var got []string
	for {
		f.lock.Lock()
		n := len(f.latest)
		f.lock.Unlock()
		if n == 0 {
			return got
		}
		obj, err := f.Pop(func(interface{}, bool) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		p := obj.(*v1.Pod)
		got = append(got, p.Name+"@"+p.ResourceVersion)
	}
}

func TestFIFOScenarios(t *testing.T) {
	tests := []struct {
		name   string
		writes func(f *FIFO) error
		want   string
	}{
		{
			name: "writes of a queued key coalesce into the newest",
			writes: func(f *FIFO) error {
				return errors.Join(f.Add(pod("ns", "a", "1", nil)), f.Add(pod("ns", "b", "2", nil)), f.Update(pod("ns", "a", "3", nil)))
			},
			want: "a@3 b@2",
		},
		{
			name: "a deletion drops the queued object",
			writes: func(f *FIFO) error {
				return errors.Join(f.Add(pod("ns", "a", "1", nil)), f.Add(pod("ns", "b", "2", nil)), f.Delete(pod("ns", "a", "1", nil)))
			},
			want: "b@2",
		},
		{
			name: "a key deleted and added again while queued keeps its first place",
			writes: func(f *FIFO) error {
				return errors.Join(f.Add(pod("ns", "a", "1", nil)), f.Delete(pod("ns", "a", "1", nil)),
					f.Add(pod("ns", "b", "2", nil)), f.Add(pod("ns", "a", "3", nil)))
			},
			want: "a@3 b@2",
		},
		{
			name: "Replace discards the queue and keeps list order",
			writes: func(f *FIFO) error {
				return errors.Join(f.Add(pod("ns", "old", "1", nil)),
					f.Replace([]interface{}{pod("ns", "z", "2", nil), pod("ns", "y", "3", nil), pod("ns", "z", "4", nil)}, "4"))
			},
			want: "z@4 y@3",
		},
		{
			name: "Resync changes nothing",
			writes: func(f *FIFO) error {
				return errors.Join(f.Add(pod("ns", "a", "1", nil)), f.Add(pod("ns", "b", "2", nil)), f.Resync())
			},
			want: "a@1 b@2",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := NewFIFO(MetaNamespaceKeyFunc)
			if err := tc.writes(f); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(popFIFO(t, f), " "); got != tc.want {
				t.Errorf("pops %q, want %q", got, tc.want)
			}
		})
	}
}

func TestFIFOKeyErrors(t *testing.T) {
	f := NewFIFO(func(interface{}) (string, error) { return "", errors.New("no key") })
	for name, err := range map[string]error{
		"Add":     f.Add(pod("ns", "a", "1", nil)),
		"Update":  f.Update(pod("ns", "a", "1", nil)),
		"Delete":  f.Delete(pod("ns", "a", "1", nil)),
		"Replace": f.Replace([]interface{}{pod("ns", "a", "1", nil)}, "1"),
	} {
		var keyErr KeyError
		if !errors.As(err, &keyErr) {
			t.Errorf("%s: err = %v, want a KeyError", name, err)
		}
	}
}

func TestFIFOInitialSync(t *testing.T) {
	f := NewFIFO(MetaNamespaceKeyFunc)
	if f.HasSynced() || f.Name() != "FIFO" {
		t.Fatalf("fresh FIFO: synced=%v name=%q", f.HasSynced(), f.Name())
	}
	_ = f.Replace([]interface{}{pod("ns", "a", "1", nil), pod("ns", "b", "1", nil)}, "1")
	_ = f.Delete(pod("ns", "b", "1", nil)) // its queued place still counts as initial
	_ = f.Add(pod("ns", "c", "2", nil))
	var initial []bool
	for range 2 {
		_, _ = f.Pop(func(_ interface{}, isInitial bool) error { initial = append(initial, isInitial); return nil })
	}
	if len(initial) != 2 || !initial[0] || initial[1] {
		t.Errorf("isInInitialList flags = %v, want [true false]", initial)
	}
	if !f.HasSynced() || !IsDone(f.HasSyncedChecker()) {
		t.Error("not synced after popping the initial items")
	}
	select {
	case <-f.Done():
	default:
		t.Error("Done not closed")
	}
}

func TestFIFOClose(t *testing.T) {
	f := NewFIFO(MetaNamespaceKeyFunc)
	_ = f.Add(pod("ns", "a", "1", nil))
	f.Close()
	if !f.IsClosed() {
		t.Error("IsClosed false")
	}
	boom := errors.New("boom")
	if obj, err := f.Pop(func(interface{}, bool) error { return boom }); err != boom || obj.(*v1.Pod).Name != "a" {
		t.Errorf("Pop after Close = %v, %v; want the queued item and the process error", obj, err)
	}
	if _, err := f.Pop(func(interface{}, bool) error { return nil }); err != ErrFIFOClosed {
		t.Errorf("Pop on a drained closed FIFO = %v", err)
	}
}
