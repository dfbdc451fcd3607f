package rest

import (
	"fmt"
	"net/http"
	"sync"

	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// AuthProvider is an authentication plugin selected by name from a
// kubeconfig's auth-provider section.
type AuthProvider interface {
	// WrapTransport returns rt wrapped so requests carry the plugin's
	// credentials.
	WrapTransport(http.RoundTripper) http.RoundTripper
	// Login prepares the plugin's credentials without user interaction.
	Login() error
}

// Factory creates an AuthProvider for the cluster at clusterAddress from the
// plugin's settings; persister stores settings the plugin updates.
type Factory func(clusterAddress string, config map[string]string, persister AuthProviderConfigPersister) (AuthProvider, error)

// AuthProviderConfigPersister saves a plugin's own settings, such as a
// refreshed token, back to where they came from.
type AuthProviderConfigPersister interface {
	Persist(map[string]string) error
}

// discardPersister is used when GetAuthProvider is given no persister.
type discardPersister struct{}

func (discardPersister) Persist(map[string]string) error { return nil }

// authPlugins is the registry of auth provider factories, keyed by name and
// guarded by authPluginsLock.
var (
	authPluginsLock sync.Mutex
	authPlugins     = map[string]Factory{}
)

// RegisterAuthProviderPlugin makes plugin available under name. Registering
// a name twice is an error. It is usually called from an init function.
func RegisterAuthProviderPlugin(name string, plugin Factory) error {
	authPluginsLock.Lock()
	defer authPluginsLock.Unlock()
	if _, exists := authPlugins[name]; exists {
		return fmt.Errorf("auth Provider Plugin %q was registered twice", name)
	}
	authPlugins[name] = plugin
	return nil
}

// GetAuthProvider creates the AuthProvider registered under apc.Name.
func GetAuthProvider(clusterAddress string, apc *clientcmdapi.AuthProviderConfig, persister AuthProviderConfigPersister) (AuthProvider, error) {
	authPluginsLock.Lock()
	factory, ok := authPlugins[apc.Name]
	authPluginsLock.Unlock()
	if !ok {
		return nil, fmt.Errorf("no Auth Provider found for name %q", apc.Name)
	}
	if persister == nil {
		persister = discardPersister{}
	}
	return factory(clusterAddress, apc.Config, persister)
}
