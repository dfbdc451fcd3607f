// Package util holds small helpers shared by the event recorders.
//
// Layer 5 (controller machinery) of kubeclient; see the README's Layers section.
package util
