// Package scale reads and writes the scale subresource of any scalable
// resource (deployments, replica sets, stateful sets, custom resources with a
// scale subresource, ...). Servers answer with one of several Scale versions
// (autoscaling/v1, extensions/v1beta1, apps/v1beta1, apps/v1beta2); the client
// converts whichever arrives to autoscaling/v1.Scale, and sends updates in the
// version discovery says the resource expects.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package scale
