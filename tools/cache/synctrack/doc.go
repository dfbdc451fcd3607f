// Package synctrack lets a consumer of an informer tell when it has finished
// processing everything in the informer's initial list, that is, when it is
// "synced" itself and not just the informer feeding it.
package synctrack
