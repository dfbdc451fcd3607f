// Package auth registers every auth provider plugin that ships with the
// client: import it for its side effects,
//
//	import _ "github.com/kubeclient/client-go/plugin/pkg/client/auth"
//
// and kubeconfig users with an auth-provider stanza (oidc, or the removed
// azure and gcp providers, which then explain what replaced them) work.
//
// Layer 1 (configuration) of kubeclient; see the README's Layers section.
package auth
