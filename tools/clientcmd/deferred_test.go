package clientcmd

import (
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	restclient "github.com/kubeclient/client-go/rest"
	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// fakeInCluster is an InClusterConfig whose answers are fixed.
type fakeInCluster struct {
	possible  bool
	config    *restclient.Config
	namespace string
	calls     int
}

func (f *fakeInCluster) RawConfig() (clientcmdapi.Config, error) { return clientcmdapi.Config{}, nil }
func (f *fakeInCluster) ClientConfig() (*restclient.Config, error) {
	f.calls++
	return f.config, nil
}
func (f *fakeInCluster) Namespace() (string, bool, error) { return f.namespace, false, nil }
func (f *fakeInCluster) ConfigAccess() ConfigAccess       { return nil }
func (f *fakeInCluster) Possible() bool                   { return f.possible }

// countingLoader is a ClientConfigLoader over a fixed Config that counts
// loads.
type countingLoader struct {
	ClientConfigGetter
	mu        sync.Mutex
	loads     int
	config    *clientcmdapi.Config
	isDefault bool
}

func (l *countingLoader) Load() (*clientcmdapi.Config, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.loads++
	return l.config.DeepCopy(), nil
}
func (l *countingLoader) IsDefaultConfig(*restclient.Config) bool { return l.isDefault }

func TestDeferredLoadsOnceAndOnlyWhenUsed(t *testing.T) {
	config := singleContextConfig(&clientcmdapi.Cluster{Server: "https://x"}, &clientcmdapi.AuthInfo{Token: "t"})
	loader := &countingLoader{config: &config}
	cc := NewNonInteractiveDeferredLoadingClientConfig(loader, &ConfigOverrides{})
	if loader.loads != 0 {
		t.Fatalf("loaded before use")
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := cc.ClientConfig(); err != nil {
				t.Error(err)
			}
			if _, _, err := cc.Namespace(); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if loader.loads != 1 {
		t.Errorf("loads = %d, want 1", loader.loads)
	}
	if cc.ConfigAccess() != loader {
		t.Errorf("ConfigAccess must be the loader")
	}
}

func TestDeferredInClusterFallback(t *testing.T) {
	inCluster := &restclient.Config{Host: "https://10.0.0.1:443", BearerToken: "sa-token"}
	full := singleContextConfig(&clientcmdapi.Cluster{Server: "https://kubeconfig"}, &clientcmdapi.AuthInfo{Token: "t"})

	tests := []struct {
		name      string
		config    clientcmdapi.Config
		isDefault bool
		possible  bool
		wantHost  string
		wantErr   func(error) bool
	}{
		{"empty kubeconfig in a pod", *clientcmdapi.NewConfig(), false, true, "https://10.0.0.1:443", nil},
		{"empty kubeconfig outside a pod", *clientcmdapi.NewConfig(), false, false, "", IsEmptyConfig},
		{"kubeconfig wins in a pod", full, false, true, "https://kubeconfig", nil},
		{"default kubeconfig in a pod", full, true, true, "https://10.0.0.1:443", nil},
		{"default kubeconfig outside a pod", full, true, false, "https://kubeconfig", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			config := tt.config
			loader := &countingLoader{config: &config, isDefault: tt.isDefault}
			icc := &fakeInCluster{possible: tt.possible, config: inCluster}
			cc := &DeferredLoadingClientConfig{loader: loader, overrides: &ConfigOverrides{}, icc: icc}
			got, err := cc.ClientConfig()
			if tt.wantErr != nil {
				if !tt.wantErr(err) {
					t.Fatalf("err = %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Host != tt.wantHost {
				t.Errorf("host = %q, want %q", got.Host, tt.wantHost)
			}
		})
	}
}

func TestDeferredNamespaceInCluster(t *testing.T) {
	withNS := singleContextConfig(&clientcmdapi.Cluster{Server: "https://x"}, &clientcmdapi.AuthInfo{Token: "t"})
	withNS.Contexts["ctx"].Namespace = "default"
	noNS := singleContextConfig(&clientcmdapi.Cluster{Server: "https://x"}, &clientcmdapi.AuthInfo{Token: "t"})

	tests := []struct {
		name      string
		config    clientcmdapi.Config
		overrides *ConfigOverrides
		possible  bool
		want      string
	}{
		{"in-cluster namespace when context has none", noNS, &ConfigOverrides{}, true, "pod-ns"},
		{"explicit default kept", withNS, &ConfigOverrides{}, true, "default"},
		{"override wins", noNS, &ConfigOverrides{Context: clientcmdapi.Context{Namespace: "flag"}}, true, "flag"},
		{"not in a pod", noNS, &ConfigOverrides{}, false, "default"},
		{"empty config in a pod", *clientcmdapi.NewConfig(), &ConfigOverrides{}, true, "pod-ns"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			config := tt.config
			cc := &DeferredLoadingClientConfig{
				loader:    &countingLoader{config: &config},
				overrides: tt.overrides,
				icc:       &fakeInCluster{possible: tt.possible, namespace: "pod-ns"},
			}
			ns, _, err := cc.Namespace()
			if err != nil {
				t.Fatal(err)
			}
			if ns != tt.want {
				t.Errorf("namespace = %q, want %q", ns, tt.want)
			}
		})
	}
}

func TestInClusterClientConfig(t *testing.T) {
	dir := t.TempDir()
	tokenFile := writeFile(t, dir, "token", "tok")
	nsFile := writeFile(t, dir, "namespace", "  from-file\n")

	icc := &inClusterClientConfig{
		overrides: &ConfigOverrides{
			ClusterInfo: clientcmdapi.Cluster{Server: "https://override", CertificateAuthority: "/ca"},
			AuthInfo:    clientcmdapi.AuthInfo{TokenFile: "/override-token"},
		},
		inClusterConfigProvider: func() (*restclient.Config, error) {
			return &restclient.Config{Host: "https://10.0.0.1", BearerToken: "sa", BearerTokenFile: "/sa"}, nil
		},
		tokenFile:     tokenFile,
		namespaceFile: nsFile,
	}
	c, err := icc.ClientConfig()
	if err != nil {
		t.Fatal(err)
	}
	if c.Host != "https://override" || c.BearerToken != "" || c.BearerTokenFile != "/override-token" || c.CAFile != "/ca" {
		t.Errorf("got %+v", c)
	}

	t.Setenv("POD_NAMESPACE", "")
	if ns, _, _ := icc.Namespace(); ns != "from-file" {
		t.Errorf("namespace = %q, want from-file", ns)
	}
	t.Setenv("POD_NAMESPACE", "from-env")
	if ns, _, _ := icc.Namespace(); ns != "from-env" {
		t.Errorf("namespace = %q, want from-env", ns)
	}
	t.Setenv("POD_NAMESPACE", "")
	icc.namespaceFile = filepath.Join(dir, "absent")
	if ns, _, _ := icc.Namespace(); ns != "default" {
		t.Errorf("namespace = %q, want default", ns)
	}

	t.Setenv("KUBERNETES_SERVICE_HOST", "10.0.0.1")
	t.Setenv("KUBERNETES_SERVICE_PORT", "443")
	if !icc.Possible() {
		t.Errorf("Possible() = false with env and token file")
	}
	t.Setenv("KUBERNETES_SERVICE_PORT", "")
	if icc.Possible() {
		t.Errorf("Possible() = true without KUBERNETES_SERVICE_PORT")
	}
	if _, err := icc.RawConfig(); err == nil {
		t.Errorf("RawConfig must fail in cluster")
	}

	failing := &inClusterClientConfig{inClusterConfigProvider: func() (*restclient.Config, error) { return nil, restclient.ErrNotInCluster }}
	if _, err := failing.ClientConfig(); !errors.Is(err, restclient.ErrNotInCluster) {
		t.Errorf("err = %v", err)
	}
}

func TestBuildConfigHelpers(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "config", kubeconfigYAML("ctx", []string{"c:server=https://file"}, []string{"u:token=t"}, []string{"ctx:cluster=c;user=u"}))

	c, err := BuildConfigFromFlags("", path)
	if err != nil || c.Host != "https://file" || c.BearerToken != "t" {
		t.Fatalf("BuildConfigFromFlags(kubeconfig) = %+v, %v", c, err)
	}
	c, err = BuildConfigFromFlags("https://master", path)
	if err != nil || c.Host != "https://master" {
		t.Fatalf("BuildConfigFromFlags(master, kubeconfig) = %+v, %v", c, err)
	}
	if _, err := BuildConfigFromFlags("", filepath.Join(dir, "missing")); err == nil {
		t.Errorf("missing explicit kubeconfig must fail")
	}

	getter := func() (*clientcmdapi.Config, error) { return LoadFromFile(path) }
	c, err = BuildConfigFromKubeconfigGetter("https://m", getter)
	if err != nil || c.Host != "https://m" || c.BearerToken != "t" {
		t.Fatalf("BuildConfigFromKubeconfigGetter = %+v, %v", c, err)
	}
	failing := func() (*clientcmdapi.Config, error) { return nil, errors.New("getter failed") }
	if _, err := BuildConfigFromKubeconfigGetter("", failing); err == nil || !strings.Contains(err.Error(), "getter failed") {
		t.Errorf("err = %v", err)
	}
}

func TestGetStartingConfigMissingFile(t *testing.T) {
	dir := t.TempDir()
	rules := &ClientConfigLoadingRules{ExplicitPath: filepath.Join(dir, "nope")}
	config, err := rules.GetStartingConfig()
	if err != nil {
		t.Fatal(err)
	}
	if !clientcmdapi.IsConfigEmpty(config) {
		t.Errorf("missing explicit file must give an empty config, got %+v", config)
	}
}

func TestDeferredInteractiveAndDefaults(t *testing.T) {
	config := singleContextConfig(&clientcmdapi.Cluster{Server: "https://x"}, &clientcmdapi.AuthInfo{})
	loader := &countingLoader{config: &config}
	cc := NewInteractiveDeferredLoadingClientConfig(loader, &ConfigOverrides{}, strings.NewReader("alice\n"))
	if _, err := cc.ClientConfig(); err == nil || !strings.Contains(err.Error(), "error reading input for Password") {
		t.Errorf("interactive config without credentials must prompt: %v", err)
	}
	cc = NewInteractiveDeferredLoadingClientConfig(loader, &ConfigOverrides{AuthInfo: clientcmdapi.AuthInfo{Token: "flag"}}, errReader{})
	if c, err := cc.ClientConfig(); err != nil || c.BearerToken != "flag" {
		t.Errorf("got %+v, %v", c, err)
	}

	// IsDefaultConfig compares against DefaultClientConfig.
	dir := t.TempDir()
	path := writeFile(t, dir, "config", kubeconfigYAML("ctx", []string{"c:server=https://x"}, []string{"u:token=t"}, []string{"ctx:cluster=c;user=u"}))
	rules := &ClientConfigLoadingRules{ExplicitPath: path}
	if rules.IsDefaultConfig(&restclient.Config{}) {
		t.Errorf("no DefaultClientConfig: nothing is default")
	}
	rules.DefaultClientConfig = NewNonInteractiveDeferredLoadingClientConfig(&ClientConfigLoadingRules{ExplicitPath: path}, &ConfigOverrides{})
	same, err := NewNonInteractiveDeferredLoadingClientConfig(rules, &ConfigOverrides{}).ClientConfig()
	if err != nil {
		t.Fatal(err)
	}
	if !rules.IsDefaultConfig(same) {
		t.Errorf("identical config not recognised as default")
	}
	if rules.IsDefaultConfig(&restclient.Config{Host: "https://other"}) {
		t.Errorf("different config recognised as default")
	}
}

func TestClientConfigGetterAccess(t *testing.T) {
	want := clientcmdapi.NewConfig()
	g := &ClientConfigGetter{kubeconfigGetter: func() (*clientcmdapi.Config, error) { return want, nil }}
	if got, _ := g.GetStartingConfig(); got != want {
		t.Errorf("GetStartingConfig did not call the getter")
	}
	if g.GetLoadingPrecedence() != nil || g.GetDefaultFilename() != "" || g.IsExplicitFile() || g.GetExplicitFile() != "" || g.IsDefaultConfig(nil) {
		t.Errorf("a getter has no files")
	}
}

func TestBuildConfigFromFlagsWithNothing(t *testing.T) {
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	t.Setenv("KUBERNETES_SERVICE_PORT", "")
	_, err := BuildConfigFromFlags("", "")
	if !IsEmptyConfig(err) {
		t.Errorf("no flags and not in a cluster: want the empty-config error, got %v", err)
	}
	c, err := BuildConfigFromFlags("https://master", "")
	if err != nil || c.Host != "https://master" {
		t.Errorf("master only: %+v, %v", c, err)
	}
}
