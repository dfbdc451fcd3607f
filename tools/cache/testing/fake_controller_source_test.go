package framework

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

func pod(name string) *v1.Pod {
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name}}
}

// next returns w's next event; in a synctest bubble the bound is the
// bubble's clock, which moves only once nothing else can happen.
func next(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	select {
	case e := <-w.ResultChan():
		return e
	case <-time.After(5 * time.Second):
		t.Fatal("no event")
	}
	return watch.Event{}
}

func TestFakeControllerSourceListAndWatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := NewFakeControllerSource()
		defer f.Shutdown()
		f.Add(pod("a"))
		f.Add(pod("b"))
		f.Modify(pod("a"))
		list, err := f.List(metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		items, _ := meta.ExtractList(list)
		lm, _ := meta.ListAccessor(list)
		if len(items) != 2 || lm.GetResourceVersion() != "3" {
			t.Errorf("list: %d items at rv %q", len(items), lm.GetResourceVersion())
		}

		// A watch from version 1 replays changes 2 and 3 and then follows.
		w, err := f.Watch(metav1.ListOptions{ResourceVersion: "1"})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		if e := next(t, w); e.Type != watch.Added || e.Object.(*v1.Pod).ResourceVersion != "2" {
			t.Errorf("replayed %v", e)
		}
		if e := next(t, w); e.Type != watch.Modified || e.Object.(*v1.Pod).ResourceVersion != "3" {
			t.Errorf("replayed %v", e)
		}
		f.Delete(pod("b"))
		if e := next(t, w); e.Type != watch.Deleted || e.Object.(*v1.Pod).ResourceVersion != "4" {
			t.Errorf("followed %v", e)
		}
		if _, err := f.Watch(metav1.ListOptions{ResourceVersion: "99"}); err == nil {
			t.Error("future version accepted")
		}
	})
}

func TestFakeControllerSourceResetAndDrops(t *testing.T) {
	f := NewFakeControllerSource()
	f.Add(pod("a"))
	f.AddDropWatch(pod("b"))
	f.ResetWatch()
	if _, err := f.Watch(metav1.ListOptions{ResourceVersion: "1"}); !apierrors.IsResourceExpired(err) {
		t.Errorf("watch after reset: %v", err)
	}
	f.ListError = apierrors.NewInternalError(errors.New("injected"))
	if _, err := f.List(metav1.ListOptions{}); err == nil {
		t.Error("ListError ignored")
	}
}

func TestFakePVSources(t *testing.T) {
	pv := NewFakePVControllerSource()
	pv.Add(&v1.PersistentVolume{ObjectMeta: metav1.ObjectMeta{Name: "pv"}})
	if l, err := pv.List(metav1.ListOptions{}); err != nil || len(l.(*v1.PersistentVolumeList).Items) != 1 {
		t.Errorf("PV list: %v %v", l, err)
	}
	pvc := NewFakePVCControllerSource()
	pvc.Add(&v1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "c"}})
	if l, err := pvc.List(metav1.ListOptions{}); err != nil || len(l.(*v1.PersistentVolumeClaimList).Items) != 1 {
		t.Errorf("PVC list: %v %v", l, err)
	}
}
