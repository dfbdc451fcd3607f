package v1_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	listerspolicyv1 "github.com/kubeclient/client-go/listers/policy/v1"
	"github.com/kubeclient/client-go/tools/cache"
)

// In policy/v1 an empty selector selects every pod of the namespace; a nil
// selector selects none.
func TestGetPodPodDisruptionBudgets(t *testing.T) {
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, pdb := range []*policyv1.PodDisruptionBudget{
		{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "all"}, Spec: policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{}}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "none"}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "web"}, Spec: policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}},
	} {
		if err := indexer.Add(pdb); err != nil {
			t.Fatal(err)
		}
	}
	lister := listerspolicyv1.NewPodDisruptionBudgetLister(indexer)
	tests := []struct {
		name   string
		labels map[string]string
		want   int
	}{
		{name: "selected by both", labels: map[string]string{"app": "web"}, want: 2},
		{name: "only the empty selector", labels: map[string]string{"app": "db"}, want: 1},
		{name: "no labels", labels: nil, want: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := lister.GetPodPodDisruptionBudgets(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "p", Labels: tt.labels}})
			if err != nil || len(got) != tt.want {
				t.Errorf("got %d budgets, %v; want %d", len(got), err, tt.want)
			}
		})
	}
	if _, err := lister.GetPodPodDisruptionBudgets(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "b", Name: "p"}}); err == nil {
		t.Error("a pod of a namespace without budgets matched")
	}
}
