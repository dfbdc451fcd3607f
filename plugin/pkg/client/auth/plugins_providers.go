//go:build !providerless

package auth

import (
	// Register the names of the removed cloud-provider plugins.
	_ "github.com/kubeclient/client-go/plugin/pkg/client/auth/azure"
	_ "github.com/kubeclient/client-go/plugin/pkg/client/auth/gcp"
)
