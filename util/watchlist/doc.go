// Package watchlist helps clients decide whether a list request can be
// served as a watch-list stream (a watch with sendInitialEvents=true) and
// builds the options for it.
package watchlist
