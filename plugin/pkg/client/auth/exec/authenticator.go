package exec

import (
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/term"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/utils/clock"

	"github.com/kubeclient/client-go/pkg/apis/clientauthentication"
	"github.com/kubeclient/client-go/pkg/apis/clientauthentication/install"
	"github.com/kubeclient/client-go/tools/clientcmd/api"
	"github.com/kubeclient/client-go/transport"
	"github.com/kubeclient/client-go/util/connrotation"
)

// execInfoEnv is the environment variable that carries the ExecCredential
// request to the plugin.
const execInfoEnv = "KUBERNETES_EXEC_INFO"

// supportedVersions maps the apiVersion values accepted in a kubeconfig to
// the group versions spoken with the plugin.
var supportedVersions = map[string]schema.GroupVersion{
	"client.authentication.k8s.io/v1beta1": {Group: clientauthentication.GroupName, Version: "v1beta1"},
	"client.authentication.k8s.io/v1":      {Group: clientauthentication.GroupName, Version: "v1"},
}

var (
	scheme = runtime.NewScheme()
	codecs = serializer.NewCodecFactory(scheme)
)

func init() {
	install.Install(scheme)
}

// authenticators shares one Authenticator per distinct (exec config,
// cluster) pair. Programs such as kubectl build many transports from the
// same kubeconfig; sharing keeps a single credential cache, a single
// connection tracker and comparable transport hooks, so the transport cache
// can reuse TLS transports.
var authenticators = &authenticatorCache{byKey: map[string]*Authenticator{}}

type authenticatorCache struct {
	mu    sync.Mutex // guards byKey
	byKey map[string]*Authenticator
}

// authenticatorKey renders every input of an Authenticator (including the
// fields JSON would normally skip) into a string usable as a map key.
func authenticatorKey(config *api.ExecConfig, cluster *clientauthentication.Cluster) string {
	type clusterKey struct {
		Server, TLSServerName, ProxyURL      string
		InsecureSkipTLSVerify, NoCompression bool
		CA                                   []byte
		Config                               string
	}
	key := struct {
		Command, APIVersion, InstallHint, Mode, StdinMessage string
		Args                                                 []string
		Env                                                  []api.ExecEnvVar
		ProvideClusterInfo, StdinUnavailable                 bool
		Policy                                               api.PolicyType
		Allowlist                                            []string
		Config                                               string
		Cluster                                              *clusterKey
	}{
		Command:            config.Command,
		APIVersion:         config.APIVersion,
		InstallHint:        config.InstallHint,
		Mode:               string(config.InteractiveMode),
		StdinMessage:       config.StdinUnavailableMessage,
		Args:               config.Args,
		Env:                config.Env,
		ProvideClusterInfo: config.ProvideClusterInfo,
		StdinUnavailable:   config.StdinUnavailable,
		Policy:             config.PluginPolicy.PolicyType,
		Config:             objectKey(config.Config),
	}
	for _, e := range config.PluginPolicy.Allowlist {
		key.Allowlist = append(key.Allowlist, e.Command)
	}
	if cluster != nil {
		key.Cluster = &clusterKey{
			Server: cluster.Server, TLSServerName: cluster.TLSServerName, ProxyURL: cluster.ProxyURL,
			InsecureSkipTLSVerify: cluster.InsecureSkipTLSVerify, NoCompression: cluster.DisableCompression,
			CA: cluster.CertificateAuthorityData, Config: objectKey(cluster.Config),
		}
	}
	b, err := json.Marshal(key)
	if err != nil {
		// Cannot happen for these field types; fall back to a key that is
		// unique to this call so no unrelated Authenticator is shared.
		return fmt.Sprintf("unkeyable:%p:%p", config, cluster)
	}
	return string(b)
}

// objectKey renders an extension object for authenticatorKey. Objects that
// do not marshal are keyed by identity.
func objectKey(obj runtime.Object) string {
	if obj == nil {
		return ""
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return fmt.Sprintf("%T:%p", obj, obj)
	}
	return string(b)
}

func (c *authenticatorCache) get(key string) *Authenticator {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.byKey[key]
}

// putIfAbsent stores a unless another goroutine stored one first, and
// returns the Authenticator that is in the cache.
func (c *authenticatorCache) putIfAbsent(key string, a *Authenticator) *Authenticator {
	c.mu.Lock()
	defer c.mu.Unlock()
	if existing, ok := c.byKey[key]; ok {
		return existing
	}
	c.byKey[key] = a
	return a
}

// Authenticator provides client credentials by running an exec plugin. The
// plugin's input and output are the ExecCredential type of the API group
// client.authentication.k8s.io. An Authenticator is safe for concurrent use.
type Authenticator struct {
	// Immutable after construction.
	cmd                string
	args               []string
	env                []string // extra NAME=value pairs from the kubeconfig
	group              schema.GroupVersion
	cluster            *clientauthentication.Cluster
	provideClusterInfo bool
	installHint        string
	policy             api.PluginPolicy
	interactive        func() (bool, error)

	// Process plumbing, replaced by tests.
	stdin   io.Reader
	stderr  io.Writer
	environ func() []string
	clock   clock.PassiveClock

	// connTracker closes every connection dialed with the old certificate
	// when the plugin returns a new one.
	connTracker *connrotation.ConnectionTracker
	// getCert and dial are stored once so that every transport.Config this
	// Authenticator updates carries the same pointers, keeping those configs
	// equal for the transport cache.
	getCert *transport.GetCertHolder
	dial    *transport.DialHolder

	// runLimit bounds a run of a plugin that is not interactive
	// (pluginRunLimit).
	runLimit time.Duration
	// refreshes counts the running refresh goroutines, so tests can wait
	// for a plugin to be reaped.
	refreshes sync.WaitGroup

	// mu guards the fields below. It is never held while the plugin runs;
	// see refresh.go for how runs are shared.
	mu          sync.Mutex
	cachedCreds *credentials
	exp         time.Time        // zero: no expiry announced
	allowed     sets.Set[string] // resolved allowlist paths
	inflight    *refresh         // the plugin run callers join, or nil
}

// credentials is one answer of the plugin. A pointer to it identifies a
// generation of credentials: a 401 only triggers a refresh when the
// credentials that failed are still the cached ones.
type credentials struct {
	token string           `datapolicy:"token"`
	cert  *tls.Certificate `datapolicy:"secret-key"`
}

// GetAuthenticator returns the Authenticator for an exec plugin
// configuration. cluster describes the cluster being authenticated to and is
// passed to the plugin when config.ProvideClusterInfo is set. Identical
// arguments return the same Authenticator.
func GetAuthenticator(config *api.ExecConfig, cluster *clientauthentication.Cluster) (*Authenticator, error) {
	return newAuthenticator(authenticators, term.IsTerminal, config, cluster)
}

func newAuthenticator(cache *authenticatorCache, isTerminal func(fd int) bool, config *api.ExecConfig, cluster *clientauthentication.Cluster) (*Authenticator, error) {
	key := authenticatorKey(config, cluster)
	if a := cache.get(key); a != nil {
		return a, nil
	}

	gv, ok := supportedVersions[config.APIVersion]
	if !ok {
		return nil, fmt.Errorf("exec plugin: invalid apiVersion %q", config.APIVersion)
	}
	if err := ValidatePluginPolicy(config.PluginPolicy); err != nil {
		return nil, fmt.Errorf("invalid plugin policy: %w", err)
	}

	tracker := connrotation.NewConnectionTracker()
	netDialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	dialer := connrotation.NewDialerWithTracker(netDialer.DialContext, tracker)

	allowed := sets.New[string]()
	for _, entry := range config.PluginPolicy.Allowlist {
		if entry.Command != "" {
			allowed.Insert(entry.Command)
		}
	}

	mode := config.InteractiveMode
	stdinUnavailable, stdinMessage := config.StdinUnavailable, config.StdinUnavailableMessage
	a := &Authenticator{
		// Cleaned so it compares equal to the (clean) allowlist entries.
		cmd:                filepath.Clean(config.Command),
		args:               config.Args,
		group:              gv,
		cluster:            cluster,
		provideClusterInfo: config.ProvideClusterInfo,
		installHint:        config.InstallHint,
		policy:             config.PluginPolicy,
		interactive: func() (bool, error) {
			return interactiveFor(mode, stdinUnavailable, stdinMessage, func() bool { return isTerminal(int(os.Stdin.Fd())) })
		},
		stdin:       os.Stdin,
		stderr:      os.Stderr,
		environ:     os.Environ,
		clock:       clock.RealClock{},
		runLimit:    pluginRunLimit,
		connTracker: tracker,
		allowed:     allowed,
	}
	for _, v := range config.Env {
		a.env = append(a.env, v.Name+"="+v.Value)
	}
	a.getCert = &transport.GetCertHolder{GetCert: a.cert}
	a.dial = &transport.DialHolder{Dial: dialer.DialContext}

	return cache.putIfAbsent(key, a), nil
}
