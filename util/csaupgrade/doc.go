// Package csaupgrade moves the field ownership that client-side apply
// recorded (managedFields entries with operation Update) to a server-side
// apply manager (operation Apply), so that an object managed with
// "kubectl apply" can be managed with server-side apply afterwards without
// conflicts or orphaned fields.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package csaupgrade
