package cache

import (
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	fcache "github.com/kubeclient/client-go/tools/cache/testing"
	v1 "k8s.io/api/core/v1"
)

// optionsRecorder is a SharedIndexInformer that records how handlers are
// registered.
type optionsRecorder struct {
	SharedIndexInformer
	plain       int
	withOptions []HandlerOptions
}

func (r *optionsRecorder) AddEventHandler(ResourceEventHandler) (ResourceEventHandlerRegistration, error) {
	r.plain++
	return nil, nil
}

func (r *optionsRecorder) AddEventHandlerWithOptions(_ ResourceEventHandler, o HandlerOptions) (ResourceEventHandlerRegistration, error) {
	r.withOptions = append(r.withOptions, o)
	return nil, nil
}

func TestAddTypedEventHandlerUsesOptionsEntryPoint(t *testing.T) {
	period := time.Hour
	tests := []struct {
		name    string
		options []HandlerOptions
		want    []HandlerOptions
		wantErr bool
	}{
		{name: "none", want: []HandlerOptions{{}}},
		{name: "one", options: []HandlerOptions{{ResyncPeriod: &period}}, want: []HandlerOptions{{ResyncPeriod: &period}}},
		{name: "two", options: []HandlerOptions{{}, {}}, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &optionsRecorder{}
			_, err := NewTypedSharedIndexInformer[*v1.Pod](rec).AddTypedEventHandler(TypedResourceEventHandlerFuncs[*v1.Pod]{}, tc.options...)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error = %v, wantErr %v", err, tc.wantErr)
			}
			if rec.plain != 0 {
				t.Errorf("AddEventHandler called %d times, want only AddEventHandlerWithOptions", rec.plain)
			}
			if fmt.Sprint(rec.withOptions) != fmt.Sprint(tc.want) {
				t.Errorf("AddEventHandlerWithOptions got %v, want %v", rec.withOptions, tc.want)
			}
		})
	}
}

func TestTypedInformer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		source := fcache.NewFakeControllerSource()
		defer source.Shutdown()
		source.Add(pod("ns", "a", "", nil))
		inf := NewTypedSharedIndexInformer[*v1.Pod](NewSharedIndexInformer(source, &v1.Pod{}, 0, Indexers{}))
		if err := inf.AddTypedIndexers(TypedIndexers[*v1.Pod]{"name": func(p *v1.Pod) ([]string, error) { return []string{p.Name}, nil }}); err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var deleted []DeletedObject[*v1.Pod]
		added := 0
		reg, err := inf.AddTypedEventHandler(TypedResourceEventHandlerFuncs[*v1.Pod]{
			AddFunc:    func(*v1.Pod) { mu.Lock(); added++; mu.Unlock() },
			DeleteFunc: func(d DeletedObject[*v1.Pod]) { mu.Lock(); deleted = append(deleted, d); mu.Unlock() },
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := inf.AddTypedEventHandler(TypedResourceEventHandlerFuncs[*v1.Pod]{}, HandlerOptions{}, HandlerOptions{}); err == nil {
			t.Error("two HandlerOptions accepted")
		}
		stop := startInformer(t, inf)
		defer stop()
		settled(t, "sync", reg.HasSynced)
		pods, err := inf.GetTypedIndexer().ByTypedIndex("name", "a")
		if err != nil || len(pods) != 1 || pods[0].Name != "a" {
			t.Errorf("ByTypedIndex = %v %v", pods, err)
		}
		source.Delete(pod("ns", "a", "", nil))
		settled(t, "delete", func() bool { mu.Lock(); defer mu.Unlock(); return len(deleted) == 1 })
		d := deleted[0]
		if d.GetKey() != "ns/a" || d.GetName() != "a" || d.GetNamespace() != "ns" || d.FinalStateUnknown != nil {
			t.Errorf("DeletedObject = %+v", d)
		}
	})
}

func TestTypedIndexer(t *testing.T) {
	informer := NewTypedSharedIndexInformer[*v1.Pod](NewSharedIndexInformer(fcache.NewFakeControllerSource(), &v1.Pod{}, 0, Indexers{}))
	idx := informer.GetTypedIndexer()
	if err := idx.AddTypedIndexers(TypedIndexers[*v1.Pod]{"app": func(p *v1.Pod) ([]string, error) {
		return []string{p.Labels["app"]}, nil
	}}); err != nil {
		t.Fatal(err)
	}
	_ = idx.Add(pod("ns", "a", "1", map[string]string{"app": "web"}))
	_ = idx.Add(pod("ns", "b", "1", map[string]string{"app": "db"}))
	same, err := idx.TypedIndex("app", pod("", "", "", map[string]string{"app": "web"}))
	if err != nil || len(same) != 1 || same[0].Name != "a" {
		t.Errorf("TypedIndex = %v %v", same, err)
	}
	byValue, err := idx.ByTypedIndex("app", "db")
	if err != nil || len(byValue) != 1 || byValue[0].Name != "b" {
		t.Errorf("ByTypedIndex = %v %v", byValue, err)
	}
	if _, err := idx.TypedIndex("missing", pod("", "", "", nil)); err == nil {
		t.Error("TypedIndex of a missing index succeeded")
	}
}

// TestTypedHandlerUpdates: a typed handler sees updates whose old and new
// objects both have its type, and nothing else.
func TestTypedHandlerUpdates(t *testing.T) {
	var got []string
	adapter := typedHandlerAdapter[*v1.Pod]{TypedResourceEventHandlerFuncs[*v1.Pod]{
		UpdateFunc: func(o, n *v1.Pod) { got = append(got, o.ResourceVersion+"->"+n.ResourceVersion) },
	}}
	adapter.OnUpdate(pod("ns", "a", "1", nil), pod("ns", "a", "2", nil))
	adapter.OnUpdate(pod("ns", "a", "2", nil), &v1.Service{})
	adapter.OnUpdate(&v1.Service{}, pod("ns", "a", "3", nil))
	if fmt.Sprint(got) != "[1->2]" {
		t.Errorf("updates seen = %v, want [1->2]", got)
	}
}
