package widgets

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	stablev1 "example.com/widgets/apis/stable/v1"
	applystablev1 "example.com/widgets/generated/applyconfiguration/stable/v1"
	"example.com/widgets/generated/clientset/versioned"
	"example.com/widgets/generated/clientset/versioned/fake"
	"example.com/widgets/generated/informers/externalversions"
	listersv1 "example.com/widgets/generated/listers/stable/v1"
)

// The generated packages sit where k8s.io/code-generator puts them.
var (
	_ versioned.Interface                    = fake.NewSimpleClientset()
	_ externalversions.SharedInformerFactory = externalversions.NewSharedInformerFactory(fake.NewSimpleClientset(), 0)
	_ listersv1.WidgetLister                 = nil
)

func TestGeneratedClientsInUserModule(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	seed := &stablev1.Widget{
		ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "ns", Labels: map[string]string{"app": "demo"}},
		Spec:       stablev1.WidgetSpec{Color: "red"},
	}
	cs := fake.NewClientset(seed)

	factory := externalversions.NewSharedInformerFactory(cs, 0)
	widgets := factory.Stable().V1().Widgets()
	lister := widgets.Lister()
	factory.Start(ctx.Done())
	defer func() {
		cancel()
		factory.Shutdown()
	}()
	for typ, ok := range factory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			t.Fatalf("cache of %v did not sync", typ)
		}
	}
	if got, err := lister.Widgets("ns").Get("a"); err != nil || got.Spec.Color != "red" {
		t.Fatalf("lister Get = %+v, %v", got, err)
	}

	ac := applystablev1.Widget("b", "ns").
		WithLabels(map[string]string{"app": "demo"}).
		WithSpec(applystablev1.WidgetSpec().WithColor("blue").WithSize(3).WithTags("x", "y"))
	applied, err := cs.StableV1().Widgets("ns").Apply(ctx, ac, metav1.ApplyOptions{FieldManager: "test"})
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if applied.Spec.Color != "blue" || applied.Spec.Size == nil || *applied.Spec.Size != 3 {
		t.Fatalf("Apply returned %+v", applied.Spec)
	}
	for {
		all, err := lister.List(labels.SelectorFromSet(labels.Set{"app": "demo"}))
		if err != nil {
			t.Fatal(err)
		}
		if len(all) == 2 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the informer did not see the applied object; lister has %d", len(all))
		case <-time.After(10 * time.Millisecond):
		}
	}
	copied := applied.DeepCopy()
	copied.Status.Ready = true
	if _, err := cs.StableV1().Widgets("ns").UpdateStatus(ctx, copied, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("UpdateStatus: %v", err)
	}
}
