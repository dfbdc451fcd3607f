// Package gentype holds the generic building blocks behind the generated typed
// clients: Client and its list/apply variants talk to an API server through a
// rest.Interface, and the Fake* variants record actions on a testing.Fake.
// Generated code embeds these types so each resource needs only a thin wrapper.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package gentype
