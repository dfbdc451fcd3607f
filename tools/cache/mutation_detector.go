package cache

import (
	"fmt"
	"os"
	"reflect"
	"strconv"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"
)

// mutationDetectionEnabled is read from KUBE_CACHE_MUTATION_DETECTOR at
// start-up.
var mutationDetectionEnabled, _ = strconv.ParseBool(os.Getenv("KUBE_CACHE_MUTATION_DETECTOR"))

// MutationDetector watches objects handed out by a cache and reports when
// somebody modifies them, which would corrupt the cache.
type MutationDetector interface {
	// AddObject starts watching obj for a while.
	AddObject(obj interface{})

	// Run checks the watched objects periodically until stopCh is closed.
	Run(stopCh <-chan struct{})
}

// NewCacheMutationDetector returns a MutationDetector named name. Unless
// KUBE_CACHE_MUTATION_DETECTOR is true it does nothing, since keeping deep
// copies of every object is expensive.
func NewCacheMutationDetector(name string) MutationDetector {
	if !mutationDetectionEnabled {
		return noopMutationDetector{}
	}
	klog.Warningln("Mutation detector is enabled, this will result in memory leakage.")
	return &cacheMutationDetector{name: name, period: time.Second, retainDuration: 2 * time.Minute}
}

type noopMutationDetector struct{}

func (noopMutationDetector) Run(stopCh <-chan struct{}) {}
func (noopMutationDetector) AddObject(interface{})      {}

// cacheMutationDetector keeps a deep copy of each added object and compares
// it with the live object every period, for retainDuration.
type cacheMutationDetector struct {
	name           string
	period         time.Duration
	retainDuration time.Duration

	// lock guards cached and added.
	lock sync.Mutex
	// cached objects are checked on every pass; added ones join them at
	// the next pass, so AddObject never waits for a comparison.
	cached []watchedObject
	added  []watchedObject
	// lastRotated is when cached was last trimmed to retainDuration.
	lastRotated time.Time

	// failureFunc is called on mutation; nil means panic.
	failureFunc func(message string)
}

type watchedObject struct {
	copied  runtime.Object
	live    runtime.Object
	addedAt time.Time
}

func (d *cacheMutationDetector) Run(stopCh <-chan struct{}) {
	t := time.NewTicker(d.period)
	defer t.Stop()
	for {
		select {
		case <-stopCh:
			return
		case <-t.C:
			d.CompareObjects()
		}
	}
}

// AddObject records a deep copy of obj, if it is a runtime.Object.
func (d *cacheMutationDetector) AddObject(obj interface{}) {
	if tomb, ok := obj.(DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	ro, ok := obj.(runtime.Object)
	if !ok {
		return
	}
	d.lock.Lock()
	defer d.lock.Unlock()
	d.added = append(d.added, watchedObject{copied: ro.DeepCopyObject(), live: ro, addedAt: time.Now()})
}

// CompareObjects checks every watched object and reports mutations.
func (d *cacheMutationDetector) CompareObjects() {
	d.lock.Lock()
	d.cached = append(d.cached, d.added...)
	d.added = nil
	now := time.Now()
	if now.Sub(d.lastRotated) > d.retainDuration {
		kept := d.cached[:0]
		for _, w := range d.cached {
			if now.Sub(w.addedAt) <= d.retainDuration {
				kept = append(kept, w)
			}
		}
		d.cached = kept
		d.lastRotated = now
	}
	watched := d.cached
	d.lock.Unlock()

	for _, w := range watched {
		if !reflect.DeepEqual(w.copied, w.live) {
			msg := fmt.Sprintf("cache %s modified object %#v\n\nwas: %#v", d.name, w.live, w.copied)
			if d.failureFunc != nil {
				d.failureFunc(msg)
				continue
			}
			panic(msg)
		}
	}
}
