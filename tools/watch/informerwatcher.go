package watch

import (
	"context"
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/tools/cache"
)

// eventBuffer decouples the informer's handler from the watch consumer:
// push never blocks, and run forwards events in order to out.
type eventBuffer struct {
	out chan<- watch.Event

	// lock guards queue; wake signals new events.
	lock  sync.Mutex
	queue []watch.Event
	wake  chan struct{}
}

func (b *eventBuffer) push(e watch.Event) {
	b.lock.Lock()
	b.queue = append(b.queue, e)
	b.lock.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// run forwards events until stop is closed.
func (b *eventBuffer) run(stop <-chan struct{}) {
	for {
		b.lock.Lock()
		batch := b.queue
		b.queue = nil
		b.lock.Unlock()
		if len(batch) == 0 {
			select {
			case <-b.wake:
				continue
			case <-stop:
				return
			}
		}
		for _, e := range batch {
			select {
			case b.out <- e:
			case <-stop:
				return
			}
		}
	}
}

// NewIndexerInformerWatcher is NewIndexerInformerWatcherWithLogger with
// the background logger; code that logs with a context should call that
// one.
func NewIndexerInformerWatcher(lw cache.ListerWatcher, objType runtime.Object) (cache.Indexer, cache.Controller, watch.Interface, <-chan struct{}) {
	return NewIndexerInformerWatcherWithLogger(klog.Background(), lw, objType)
}

// NewIndexerInformerWatcherWithLogger runs an indexer informer over lw and
// exposes its notifications as a watch.Interface. Deletions noticed only
// by a relist arrive as Deleted events with the last known object.
// Stopping the watch stops the informer; the returned channel is closed
// once it has fully stopped.
func NewIndexerInformerWatcherWithLogger(logger klog.Logger, lw cache.ListerWatcher, objType runtime.Object) (cache.Indexer, cache.Controller, watch.Interface, <-chan struct{}) {
	ch := make(chan watch.Event)
	w := watch.NewProxyWatcher(ch)
	buf := &eventBuffer{out: ch, wake: make(chan struct{}, 1)}

	indexer, informer := cache.NewInformerWithOptions(cache.InformerOptions{
		Logger:        &logger,
		ListerWatcher: lw,
		ObjectType:    objType,
		Handler: cache.ResourceEventHandlerFuncs{
			AddFunc: func(obj interface{}) {
				buf.push(watch.Event{Type: watch.Added, Object: obj.(runtime.Object)})
			},
			UpdateFunc: func(_, newObj interface{}) {
				buf.push(watch.Event{Type: watch.Modified, Object: newObj.(runtime.Object)})
			},
			DeleteFunc: func(obj interface{}) {
				if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
					obj = tomb.Obj
				}
				if ro, ok := obj.(runtime.Object); ok {
					buf.push(watch.Event{Type: watch.Deleted, Object: ro})
				}
			},
		},
	})

	ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logger))
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		buf.run(w.StopChan())
	}()
	go func() {
		defer wg.Done()
		informer.RunWithContext(ctx)
	}()
	go func() {
		<-w.StopChan()
		cancel()
		wg.Wait()
		// Nothing sends any more: let readers of the result channel see
		// its end.
		close(ch)
		close(done)
	}()
	return indexer.(cache.Indexer), informer, w, done
}
