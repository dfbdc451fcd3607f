// Package oidc is the "oidc" auth provider. It sends the kubeconfig's
// id-token as a bearer token and, once that token has expired, obtains a new
// one from the identity provider with the refresh-token, using the token
// endpoint advertised at <idp-issuer-url>/.well-known/openid-configuration.
// Refreshed tokens are written back through the AuthProviderConfigPersister.
//
// Layer 1 (configuration) of kubeclient, with the exception the README names:
// it imports rest (layer 3) to register itself where rest.Config finds auth providers.
package oidc
