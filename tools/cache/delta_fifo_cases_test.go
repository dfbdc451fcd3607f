package cache

import (
	"testing"

	v1 "k8s.io/api/core/v1"
)

func TestDeltaFIFOReplaceTransformsSyncDeltas(t *testing.T) {
	transformed := 0
	known := NewStore(MetaNamespaceKeyFunc)
	if err := known.Add(pod("ns", "known", "1", map[string]string{"t": "yes"})); err != nil {
		t.Fatal(err)
	}
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{
		KeyFunction:  MetaNamespaceKeyFunc,
		KnownObjects: known,
		Transformer: func(obj interface{}) (interface{}, error) {
			transformed++
			p := obj.(*v1.Pod).DeepCopy()
			p.Labels = map[string]string{"t": "yes"}
			return p, nil
		},
	})
	if err := f.Replace([]interface{}{pod("ns", "known", "2", nil), pod("ns", "new", "2", nil)}, "2"); err != nil {
		t.Fatal(err)
	}
	if transformed != 2 {
		t.Errorf("Replace transformed %d objects, want 2", transformed)
	}
	for range 2 {
		_, err := f.Pop(func(obj interface{}, _ bool) error {
			d := obj.(Deltas).Newest()
			if d.Type != Sync {
				t.Errorf("delta type = %v, want %v", d.Type, Sync)
			}
			if p := d.Object.(*v1.Pod); p.Labels["t"] != "yes" {
				t.Errorf("%s/%s was queued untransformed", p.Namespace, p.Name)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// Resync replays the known (already transformed) objects as they are.
	if err := f.Resync(); err != nil {
		t.Fatal(err)
	}
	if transformed != 2 {
		t.Errorf("Resync called the transformer; %d calls in total, want 2", transformed)
	}
}
