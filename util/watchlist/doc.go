// Package watchlist helps clients decide whether a list request can be
// served as a watch-list stream (a watch with sendInitialEvents=true) and
// builds the options for it.
//
// Layer 5 (controller machinery) of kubeclient; see the README's Layers section.
package watchlist
