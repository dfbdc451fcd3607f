package cache

import "testing"

func TestResourceVersionPositions(t *testing.T) {
	tests := []struct {
		position              versionPosition
		forList, forWatchList string
	}{
		{versionPosition{}, "0", ""},
		{versionPosition{last: "12"}, "12", "12"},
		{versionPosition{last: "12", unavailable: true}, "", ""},
		{versionPosition{unavailable: true}, "", ""},
	}
	for _, tc := range tests {
		if got := tc.position.forList(); got != tc.forList {
			t.Errorf("%+v.forList() = %q, want %q", tc.position, got, tc.forList)
		}
		if got := tc.position.forWatchList(); got != tc.forWatchList {
			t.Errorf("%+v.forWatchList() = %q, want %q", tc.position, got, tc.forWatchList)
		}
	}
}

func TestReflectorReachedVersion(t *testing.T) {
	store := &versionRecorder{Store: NewStore(MetaNamespaceKeyFunc)}
	r := NewReflector(&scriptedLW{}, nil, store, 0)
	if r.LastSyncResourceVersion() != "" {
		t.Fatal("a new reflector has a version")
	}
	r.reachedVersion("5")
	r.reachedVersion("7")
	if r.LastSyncResourceVersion() != "7" || len(store.versions) != 2 || store.versions[1] != "7" {
		t.Errorf("last %q, store saw %v", r.LastSyncResourceVersion(), store.versions)
	}
	r.versions.setUnavailable(true)
	if p := r.versions.position(); p.forList() != "" || p.last != "7" {
		t.Errorf("after unavailable: %+v", p)
	}
}
