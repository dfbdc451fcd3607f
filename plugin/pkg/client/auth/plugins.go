package auth

import (
	// Registers the OIDC provider.
	_ "github.com/kubeclient/client-go/plugin/pkg/client/auth/oidc"
)
