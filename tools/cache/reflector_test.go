package cache

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"testing/synctest"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
)

func TestReflectorNameAndType(t *testing.T) {
	r := NewReflector(&scriptedLW{}, &v1.Pod{}, NewStore(MetaNamespaceKeyFunc), 0)
	if r.Name() == "" {
		t.Errorf("default name = %q", r.Name())
	}
	if r.TypeDescription() != "*v1.Pod" {
		t.Errorf("TypeDescription = %q", r.TypeDescription())
	}
	r = NewNamedReflector("mine", &scriptedLW{}, nil, NewStore(MetaNamespaceKeyFunc), 0)
	if r.Name() != "mine" || r.TypeDescription() != "<unspecified>" {
		t.Errorf("named reflector: %q %q", r.Name(), r.TypeDescription())
	}
}

// TestReflectorBacksOffExponentially measures, on the clock of a synctest
// bubble, the delays between the attempts of a reflector whose lists
// fail.
func TestReflectorBacksOffExponentially(t *testing.T) {
	tests := []struct {
		name    string
		backoff wait.Backoff
		want    []time.Duration
	}{
		{name: "doubling", backoff: wait.Backoff{Duration: time.Second, Factor: 2, Steps: 10, Cap: time.Minute},
			want: []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second}},
		{name: "capped", backoff: wait.Backoff{Duration: time.Second, Factor: 2, Steps: 10, Cap: 3 * time.Second},
			want: []time.Duration{time.Second, 2 * time.Second, 3 * time.Second, 3 * time.Second}},
		{name: "constant", backoff: wait.Backoff{Duration: 5 * time.Second, Factor: 1, Steps: 10, Cap: time.Minute},
			want: []time.Duration{5 * time.Second, 5 * time.Second, 5 * time.Second}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				attempts := make(chan time.Time, len(tc.want)+1)
				lw := &scriptedLW{
					noWatchList: true,
					list: func(int, metav1.ListOptions) (runtime.Object, error) {
						select {
						case attempts <- time.Now():
						default:
						}
						return nil, errors.New("server down")
					},
					watch: func(int, metav1.ListOptions) (watch.Interface, error) { return watch.NewFake(), nil },
				}
				r := NewReflectorWithOptions(lw, &v1.Pod{}, NewStore(MetaNamespaceKeyFunc), ReflectorOptions{Backoff: &tc.backoff})
				r.setWatchErrorHandler(func(context.Context, *Reflector, error) {})
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan struct{})
				go func() { defer close(done); r.RunWithContext(ctx) }()
				var got []time.Duration
				last := <-attempts
				for range tc.want {
					next := <-attempts
					got = append(got, next.Sub(last))
					last = next
				}
				cancel()
				<-done
				if !reflect.DeepEqual(got, tc.want) {
					t.Errorf("delays between attempts %v, want %v", got, tc.want)
				}
			})
		})
	}
}

// TestReflectorLifecycle: the stop-channel forms end when the channel is
// closed, and the convenience constructors name and wire the reflector.
func TestReflectorLifecycle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lw := &scriptedLW{noWatchList: true,
			list: func(int, metav1.ListOptions) (runtime.Object, error) {
				return podList("1", "", pod("ns", "a", "1", nil)), nil
			},
			watch: func(int, metav1.ListOptions) (watch.Interface, error) { return watch.NewFake(), nil },
		}
		indexer, r := NewNamespaceKeyedIndexerAndReflector(lw, &v1.Pod{}, 0)
		stop := make(chan struct{})
		ran := make(chan struct{})
		go func() { defer close(ran); r.Run(stop) }()
		settled(t, "the list is stored", func() bool { return len(indexer.ListKeys()) == 1 })
		if keys, _ := indexer.IndexKeys(NamespaceIndex, "ns"); len(keys) != 1 {
			t.Errorf("namespace index %v", keys)
		}
		close(stop)
		<-ran

		stop = make(chan struct{})
		returned := make(chan error)
		go func() { returned <- r.ListAndWatch(stop) }()
		settled(t, "a second watch", func() bool { _, w := lw.recorded(); return len(w) == 2 })
		close(stop)
		if err := <-returned; err != nil {
			t.Errorf("ListAndWatch after stop = %v", err)
		}
	})
}
