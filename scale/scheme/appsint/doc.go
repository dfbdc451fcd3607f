// Package appsint registers the internal Scale under the internal version of
// the apps API group. It declares no types of its own: the registration only
// lets runtime.Scheme convert a apps Scale through the internal form.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package appsint
