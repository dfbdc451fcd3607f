// Package internal holds the data structures behind package workqueue's
// speed, each in its own package with its own tests, so that the queue
// files read as queue logic:
//
//   - itemtable: a hash table with linear probing and backward-shift
//     deletion, whose hash is computed by the caller outside its lock;
//   - ring: a growable circular FIFO buffer;
//   - ledger: the per-item bookkeeping of a work queue (waiting, in flight,
//     added again while in flight) in one word per item;
//   - delayheap: the items of a delaying queue ordered by ready time.
package internal
