// Package watch converts between watch.Event values and the
// metav1.WatchEvent frames of a Kubernetes watch stream. The Decoder is what
// rest.Request.Watch feeds to a watch.StreamWatcher; the Encoder writes the
// same frames, which servers and tests need.
//
// Layer 3 (REST client) of kubeclient; see the README's Layers section.
package watch
