// Package cache is the client-side caching layer every controller builds on.
//
// A Reflector lists and watches one resource on the API server and mirrors
// what it sees into a ReflectorStore. Stores come in two flavours: plain
// keyed storage (Store, Indexer, ThreadSafeStore) that answers Get/List
// queries locally, and queues (DeltaFIFO, RealFIFO, FIFO) that also hand
// every change to a consumer. A SharedInformer ties them together: it runs
// a Reflector into a queue, applies popped changes to an Indexer and fans
// the notifications out to any number of ResourceEventHandlers, each with
// its own buffer and goroutine.
package cache
