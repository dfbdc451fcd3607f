package clientcmd

import (
	restclient "github.com/kubeclient/client-go/rest"
	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// KubeconfigGetter produces a Config on demand.
type KubeconfigGetter func() (*clientcmdapi.Config, error)

// ClientConfigGetter is a ClientConfigLoader backed by a KubeconfigGetter
// rather than by files; it has no files to report or write.
type ClientConfigGetter struct {
	kubeconfigGetter KubeconfigGetter
}

var _ ClientConfigLoader = &ClientConfigGetter{}

// Load calls the getter.
func (g *ClientConfigGetter) Load() (*clientcmdapi.Config, error) {
	return g.kubeconfigGetter()
}

// GetLoadingPrecedence returns nil: a getter reads no files.
func (g *ClientConfigGetter) GetLoadingPrecedence() []string { return nil }

// GetStartingConfig calls the getter.
func (g *ClientConfigGetter) GetStartingConfig() (*clientcmdapi.Config, error) {
	return g.kubeconfigGetter()
}

// GetDefaultFilename returns "": a getter has no file to write.
func (g *ClientConfigGetter) GetDefaultFilename() string { return "" }

// IsExplicitFile returns false.
func (g *ClientConfigGetter) IsExplicitFile() bool { return false }

// GetExplicitFile returns "".
func (g *ClientConfigGetter) GetExplicitFile() string { return "" }

// IsDefaultConfig returns false: a getter has no notion of a default.
func (g *ClientConfigGetter) IsDefaultConfig(config *restclient.Config) bool { return false }
