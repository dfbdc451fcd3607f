package watchlist

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clientfeatures "github.com/kubeclient/client-go/features"
)

type reporter bool

func (r reporter) IsWatchListSemanticsUnSupported() bool { return bool(r) }

func TestDoesClientNotSupportWatchListSemantics(t *testing.T) {
	if DoesClientNotSupportWatchListSemantics(struct{}{}) {
		t.Error("a client that says nothing supports watch-list")
	}
	if !DoesClientNotSupportWatchListSemantics(reporter(true)) {
		t.Error("explicit lack of support ignored")
	}
	if DoesClientNotSupportWatchListSemantics(reporter(false)) {
		t.Error("explicit support ignored")
	}
}

func TestPrepareWatchListOptionsFromListOptions(t *testing.T) {
	if !clientfeatures.FeatureGates().Enabled(clientfeatures.WatchListClient) {
		t.Skip("WatchListClient disabled")
	}
	tests := []struct {
		name string
		in   metav1.ListOptions
		ok   bool
	}{
		{"plain", metav1.ListOptions{LabelSelector: "a=b"}, true},
		{"rv 0 with limit", metav1.ListOptions{ResourceVersion: "0", Limit: 10}, true},
		{"limit with exact rv", metav1.ListOptions{ResourceVersion: "5", Limit: 10}, false},
		{"exact match", metav1.ListOptions{ResourceVersion: "5", ResourceVersionMatch: metav1.ResourceVersionMatchExact}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, ok, err := PrepareWatchListOptionsFromListOptions(tc.in)
			if err != nil || ok != tc.ok {
				t.Fatalf("ok=%v err=%v", ok, err)
			}
			if !ok {
				return
			}
			if !out.Watch || !out.AllowWatchBookmarks || out.SendInitialEvents == nil || !*out.SendInitialEvents ||
				out.ResourceVersionMatch != metav1.ResourceVersionMatchNotOlderThan || out.Limit != 0 || out.LabelSelector != tc.in.LabelSelector {
				t.Errorf("options = %+v", out)
			}
		})
	}
}
