package v1_test

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	listersappsv1 "github.com/kubeclient/client-go/listers/apps/v1"
	"github.com/kubeclient/client-go/tools/cache"
)

func newIndexer(t *testing.T, objs ...any) cache.Indexer {
	t.Helper()
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, obj := range objs {
		if err := indexer.Add(obj); err != nil {
			t.Fatal(err)
		}
	}
	return indexer
}

func replicaSet(ns, name string, sel *metav1.LabelSelector) *appsv1.ReplicaSet {
	return &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: appsv1.ReplicaSetSpec{Selector: sel}}
}

func TestGetPodReplicaSets(t *testing.T) {
	web := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	lister := listersappsv1.NewReplicaSetLister(newIndexer(t,
		replicaSet("a", "web", web),
		replicaSet("b", "web-elsewhere", web),
		replicaSet("a", "empty", &metav1.LabelSelector{}),
		replicaSet("a", "nil", nil),
		replicaSet("a", "invalid", &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: "Bogus"}}}),
	))
	tests := []struct {
		name    string
		pod     *corev1.Pod
		want    []string
		wantErr string
	}{
		{name: "match", pod: &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "p", Labels: map[string]string{"app": "web"}}}, want: []string{"web"}},
		{name: "no labels", pod: &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "p"}}, wantErr: "because it has no labels"},
		{name: "no match", pod: &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "p", Labels: map[string]string{"app": "db"}}}, wantErr: "could not find ReplicaSet for pod p in namespace a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := lister.GetPodReplicaSets(tt.pod)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, rs := range got {
				names = append(names, rs.Name)
			}
			if strings.Join(names, ",") != strings.Join(tt.want, ",") {
				t.Errorf("got %v, want %v", names, tt.want)
			}
		})
	}
}

func TestGetHistoryDaemonSets(t *testing.T) {
	lister := listersappsv1.NewDaemonSetLister(newIndexer(t, &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "agent"},
		Spec:       appsv1.DaemonSetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "agent"}}},
	}))
	history := &appsv1.ControllerRevision{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "agent-1", Labels: map[string]string{"app": "agent"}}}
	got, err := lister.GetHistoryDaemonSets(history)
	if err != nil || len(got) != 1 || got[0].Name != "agent" {
		t.Fatalf("GetHistoryDaemonSets = %v, %v", got, err)
	}
	history.Labels = nil
	if _, err := lister.GetHistoryDaemonSets(history); err == nil {
		t.Error("a revision without labels matched")
	}
}
