// Package workqueue implements the work queues that controllers use to hand
// keys from event handlers to worker goroutines.
//
// The basic queue (Typed) is fair (first in, first out), stingy (a key that
// is added several times before a worker picks it up is processed once) and
// never hands the same key to two workers at once: a key that is added again
// while a worker holds it is queued again only after the worker calls Done.
// ShutDown and ShutDownWithDrain tell workers to stop.
//
// Layered on top of it are a delaying queue (AddAfter, ordered by a heap and
// driven by an injectable clock) and a rate-limiting queue (AddRateLimited,
// Forget, NumRequeues) whose delays come from a TypedRateLimiter. Queues can
// report metrics through a MetricsProvider, and ParallelizeUntil runs
// independent pieces of work on a bounded set of goroutines.
package workqueue
