// Package reference builds core/v1 ObjectReferences to API objects, as used
// by events and other objects that point at another object.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package reference
