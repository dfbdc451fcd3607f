package crd_test

import (
	"reflect"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	stablev1 "github.com/kubeclient/client-go/examples/crd/apis/stable/v1"
)

func fullCronTab() *stablev1.CronTab {
	replicas, class := int32(2), "fast"
	now := metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	return &stablev1.CronTab{
		ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "x", Labels: map[string]string{"app": "demo"}},
		Spec: stablev1.CronTabSpec{
			Replicas:  &replicas,
			ClassName: &class,
			Args:      []string{"-v"},
			Env:       []stablev1.EnvVar{{Name: "MODE", Value: "fast"}},
			Labels:    map[string]string{"tier": "batch"},
			Selector:  &metav1.LabelSelector{MatchLabels: map[string]string{"disk": "ssd"}},
			Timeout:   &metav1.Duration{Duration: time.Minute},
			Retry:     &stablev1.RetryPolicy{Limit: 3, Backoff: &metav1.Duration{Duration: time.Second}},
			Windows:   map[string][]int32{"night": {22, 23}},
		},
		Status: stablev1.CronTabStatus{
			LastScheduleTime: &now,
			Conditions:       []metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue}},
		},
	}
}

func TestDeepCopyIsIndependent(t *testing.T) {
	orig := fullCronTab()
	cp := orig.DeepCopyObject().(*stablev1.CronTab)
	if !reflect.DeepEqual(orig, cp) {
		t.Fatalf("copy differs:\n%+v\n%+v", orig, cp)
	}
	*cp.Spec.Replicas = 9
	*cp.Spec.ClassName = "slow"
	cp.Spec.Args[0] = "-q"
	cp.Spec.Env[0].Value = "slow"
	cp.Spec.Labels["tier"] = "web"
	cp.Spec.Selector.MatchLabels["disk"] = "hdd"
	cp.Spec.Timeout.Duration = time.Hour
	cp.Spec.Retry.Backoff.Duration = time.Hour
	cp.Spec.Windows["night"][0] = 1
	cp.Status.LastScheduleTime.Time = time.Time{}
	cp.Status.Conditions[0].Status = metav1.ConditionFalse
	cp.Labels["app"] = "other"
	if !reflect.DeepEqual(orig, fullCronTab()) {
		t.Fatalf("changing the copy changed the original: %+v", orig)
	}
}

func TestDeepCopyNilAndNamedTypes(t *testing.T) {
	var nilCT *stablev1.CronTab
	if nilCT.DeepCopy() != nil || nilCT.DeepCopyObject() != nil {
		t.Fatal("deep copy of a nil CronTab is not nil")
	}
	if stablev1.Hosts(nil).DeepCopy() != nil {
		t.Fatal("deep copy of nil Hosts is not nil")
	}
	class := &stablev1.CronTabClass{Nodes: stablev1.Hosts{"n1"}}
	list := &stablev1.CronTabClassList{Items: []stablev1.CronTabClass{*class}}
	cp := list.DeepCopyObject().(*stablev1.CronTabClassList)
	cp.Items[0].Nodes[0] = "n2"
	if list.Items[0].Nodes[0] != "n1" {
		t.Fatal("changing the copied list changed the original's Hosts")
	}
	empty := (&stablev1.CronTabSpec{}).DeepCopy()
	if empty.Args != nil || empty.Labels != nil || empty.Replicas != nil {
		t.Fatalf("nil fields became non-nil: %+v", empty)
	}
}
