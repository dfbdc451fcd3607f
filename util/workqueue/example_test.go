package workqueue_test

import (
	"fmt"
	"time"

	"github.com/kubeclient/client-go/util/workqueue"
)

// A per-item exponential back-off: each failure of an item doubles its
// delay, up to the maximum; Forget starts it over. A rate-limiting queue
// asks its limiter for this delay on every AddRateLimited.
func ExampleNewTypedItemExponentialFailureRateLimiter() {
	limiter := workqueue.NewTypedItemExponentialFailureRateLimiter[string](5*time.Millisecond, 30*time.Millisecond)
	for range 4 {
		fmt.Println(limiter.When("default/web"))
	}
	fmt.Println(limiter.NumRequeues("default/web"), limiter.When("default/other"))
	limiter.Forget("default/web")
	fmt.Println(limiter.NumRequeues("default/web"), limiter.When("default/web"))
	// Output:
	// 5ms
	// 10ms
	// 20ms
	// 30ms
	// 4 5ms
	// 0 5ms
}

// A rate-limiting queue hands each key to one worker at a time: a key added
// again while it is being processed is queued once more only after Done.
func ExampleNewTypedRateLimitingQueueWithConfig() {
	queue := workqueue.NewTypedRateLimitingQueueWithConfig(
		workqueue.DefaultTypedControllerRateLimiter[string](),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: "example"})
	defer queue.ShutDown()

	queue.Add("default/a")
	queue.Add("default/b")
	queue.Add("default/a") // already queued: no second entry
	fmt.Println(queue.Len())

	key, _ := queue.Get()
	queue.Add(key) // being processed: queued again once Done is called
	fmt.Println(key, queue.Len())
	queue.Done(key)
	fmt.Println(queue.Len())
	for queue.Len() > 0 {
		key, _ := queue.Get()
		fmt.Println("processing", key)
		queue.Forget(key)
		queue.Done(key)
	}
	// Output:
	// 2
	// default/a 1
	// 2
	// processing default/b
	// processing default/a
}
