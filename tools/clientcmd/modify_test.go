package clientcmd

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// twoFileSetup writes two kubeconfig files and returns rules over both.
func twoFileSetup(t *testing.T) (dir, first, second string, rules *ClientConfigLoadingRules) {
	t.Helper()
	dir = t.TempDir()
	first = writeFile(t, dir, "first", kubeconfigYAML("ctx-a",
		[]string{"cluster-a:server=https://a"},
		[]string{"user-a:token=ta"},
		[]string{"ctx-a:cluster=cluster-a;user=user-a"}))
	second = writeFile(t, dir, "second", kubeconfigYAML("",
		[]string{"cluster-b:server=https://b"},
		[]string{"user-b:token=tb"},
		[]string{"ctx-b:cluster=cluster-b;user=user-b"}))
	rules = &ClientConfigLoadingRules{Precedence: []string{first, second}}
	return dir, first, second, rules
}

func mustLoad(t *testing.T, path string) *clientcmdapi.Config {
	t.Helper()
	c, err := LoadFromFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestModifyConfigWritesToOrigin(t *testing.T) {
	_, first, second, rules := twoFileSetup(t)
	config, err := rules.GetStartingConfig()
	if err != nil {
		t.Fatal(err)
	}

	config.Clusters["cluster-b"].Server = "https://b-changed"                                      // from second
	config.AuthInfos["user-a"].Token = "ta-changed"                                                // from first
	config.Clusters["cluster-new"] = &clientcmdapi.Cluster{Server: "https://new"}                  // no origin: default file
	config.Contexts["ctx-new"] = &clientcmdapi.Context{Cluster: "cluster-new", AuthInfo: "user-b"} // default file
	delete(config.AuthInfos, "user-b")                                                             // from second
	delete(config.Contexts, "ctx-a")                                                               // from first
	config.CurrentContext = "ctx-b"

	if err := ModifyConfig(rules, *config, false); err != nil {
		t.Fatal(err)
	}

	a, b := mustLoad(t, first), mustLoad(t, second)
	if a.AuthInfos["user-a"].Token != "ta-changed" {
		t.Errorf("user-a not updated in its file")
	}
	if _, ok := a.Clusters["cluster-b"]; ok {
		t.Errorf("cluster-b leaked into the first file")
	}
	if b.Clusters["cluster-b"].Server != "https://b-changed" {
		t.Errorf("cluster-b not updated in its file")
	}
	if _, ok := b.AuthInfos["user-b"]; ok {
		t.Errorf("user-b not deleted from the second file")
	}
	if _, ok := a.Contexts["ctx-a"]; ok {
		t.Errorf("ctx-a not deleted from the first file")
	}
	if a.Clusters["cluster-new"] == nil || a.Contexts["ctx-new"] == nil {
		t.Errorf("new entries must go to the default (first existing) file: %+v", a)
	}
	if a.CurrentContext != "ctx-b" {
		t.Errorf("current-context = %q in the default file", a.CurrentContext)
	}
	if b.CurrentContext != "" {
		t.Errorf("second file's current-context changed to %q", b.CurrentContext)
	}
	for _, f := range []string{first, second} {
		if _, err := os.Stat(f + ".lock"); !os.IsNotExist(err) {
			t.Errorf("lock for %s left behind", f)
		}
	}

	// Loading again gives what was written.
	after, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	if after.CurrentContext != "ctx-b" || after.Clusters["cluster-b"].Server != "https://b-changed" || len(after.AuthInfos) != 1 {
		t.Errorf("reloaded config = %+v", after)
	}
}

func TestModifyConfigNoChangeWritesNothing(t *testing.T) {
	_, first, _, rules := twoFileSetup(t)
	before, err := os.ReadFile(first)
	if err != nil {
		t.Fatal(err)
	}
	config, err := rules.GetStartingConfig()
	if err != nil {
		t.Fatal(err)
	}
	if err := ModifyConfig(rules, *config, true); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(first)
	if string(before) != string(after) {
		t.Errorf("unchanged config rewrote the file")
	}
}

func TestModifyConfigClearsCurrentContextWhereSet(t *testing.T) {
	dir := t.TempDir()
	first := writeFile(t, dir, "first", kubeconfigYAML("", []string{"c:server=https://c"}, nil, nil))
	second := writeFile(t, dir, "second", kubeconfigYAML("x", nil, nil, nil))
	rules := &ClientConfigLoadingRules{Precedence: []string{first, second}}
	config, err := rules.GetStartingConfig()
	if err != nil {
		t.Fatal(err)
	}
	config.CurrentContext = ""
	if err := ModifyConfig(rules, *config, false); err != nil {
		t.Fatal(err)
	}
	if got := mustLoad(t, second).CurrentContext; got != "" {
		t.Errorf("current-context in the file that set it = %q, want cleared", got)
	}
}

func TestModifyConfigRelativizesPaths(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "kube/config", kubeconfigYAML("", nil, nil, nil))
	rules := &ClientConfigLoadingRules{ExplicitPath: path}
	config, err := rules.GetStartingConfig()
	if err != nil {
		t.Fatal(err)
	}
	kubeDir := filepath.Dir(path)
	config.Clusters["c"] = &clientcmdapi.Cluster{Server: "https://c", CertificateAuthority: filepath.Join(kubeDir, "pki", "ca.crt"), LocationOfOrigin: path}
	config.AuthInfos["u"] = &clientcmdapi.AuthInfo{ClientCertificate: filepath.Join(kubeDir, "u.crt"), ClientKey: filepath.Join(dir, "outside.key"), LocationOfOrigin: path}
	config.Preferences.Colors = true
	if err := ModifyConfig(rules, *config, true); err != nil {
		t.Fatal(err)
	}
	raw, err := (&ClientConfigLoadingRules{ExplicitPath: path, DoNotResolvePaths: true}).Load()
	if err != nil {
		t.Fatal(err)
	}
	if got := raw.Clusters["c"].CertificateAuthority; got != filepath.Join("pki", "ca.crt") {
		t.Errorf("CA stored as %q, want relative", got)
	}
	if got := raw.AuthInfos["u"].ClientCertificate; got != "u.crt" {
		t.Errorf("cert stored as %q, want relative", got)
	}
	if got := raw.AuthInfos["u"].ClientKey; got != filepath.Join(dir, "outside.key") {
		t.Errorf("key outside the folder stored as %q, want absolute", got)
	}
	if !raw.Preferences.Colors {
		t.Errorf("preferences not written to the explicit file")
	}
	resolved, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	if got := resolved.Clusters["c"].CertificateAuthority; got != filepath.Join(kubeDir, "pki", "ca.crt") {
		t.Errorf("reloaded CA = %q", got)
	}
}

func TestModifyConfigLock(t *testing.T) {
	_, first, _, rules := twoFileSetup(t)
	if err := os.WriteFile(first+".lock", nil, 0600); err != nil {
		t.Fatal(err)
	}
	config, err := rules.GetStartingConfig()
	if err != nil {
		t.Fatal(err)
	}
	config.CurrentContext = "ctx-b"
	if err := ModifyConfig(rules, *config, false); err == nil || !os.IsExist(err) {
		t.Fatalf("held lock: err = %v, want an already-exists error", err)
	}
	if mustLoad(t, first).CurrentContext != "ctx-a" {
		t.Errorf("file changed while locked")
	}

	UseModifyConfigLock = false
	t.Cleanup(func() { UseModifyConfigLock = true })
	if err := ModifyConfig(rules, *config, false); err != nil {
		t.Fatal(err)
	}
	if mustLoad(t, first).CurrentContext != "ctx-b" {
		t.Errorf("write without lock failed")
	}
}

func TestPathOptions(t *testing.T) {
	dir := t.TempDir()
	global := filepath.Join(dir, "global")
	envA, envB := filepath.Join(dir, "env-a"), writeFile(t, dir, "env-b", kubeconfigYAML("from-env-b", nil, nil, nil))

	t.Setenv("TEST_KUBECONFIG", "")
	o := &PathOptions{GlobalFile: global, EnvVar: "TEST_KUBECONFIG", LoadingRules: &ClientConfigLoadingRules{DoNotResolvePaths: true}}
	if got := o.GetLoadingPrecedence(); !reflect.DeepEqual(got, []string{global}) {
		t.Errorf("precedence = %v", got)
	}
	if got := o.GetDefaultFilename(); got != global {
		t.Errorf("default file = %q", got)
	}
	if got := o.GetEnvVarFiles(); len(got) != 0 {
		t.Errorf("env files = %v", got)
	}

	t.Setenv("TEST_KUBECONFIG", envA+string(os.PathListSeparator)+envB+string(os.PathListSeparator)+envA)
	if got := o.GetLoadingPrecedence(); !reflect.DeepEqual(got, []string{envA, envB}) {
		t.Errorf("precedence = %v", got)
	}
	if got := o.GetDefaultFilename(); got != envB {
		t.Errorf("default file = %q, want the first existing env file", got)
	}
	config, err := o.GetStartingConfig()
	if err != nil || config.CurrentContext != "from-env-b" {
		t.Errorf("starting config = %+v, %v", config, err)
	}
	if err := os.Remove(envB); err != nil {
		t.Fatal(err)
	}
	if got := o.GetDefaultFilename(); got != envB {
		t.Errorf("default file = %q, want the last env file when none exists", got)
	}

	o.LoadingRules.ExplicitPath = filepath.Join(dir, "explicit")
	if !o.IsExplicitFile() || o.GetDefaultFilename() != o.LoadingRules.ExplicitPath ||
		!reflect.DeepEqual(o.GetLoadingPrecedence(), []string{o.LoadingRules.ExplicitPath}) {
		t.Errorf("explicit path not honoured")
	}
	config, err = o.GetStartingConfig()
	if err != nil || !clientcmdapi.IsConfigEmpty(config) {
		t.Errorf("missing explicit file: %+v, %v", config, err)
	}

	d := NewDefaultPathOptions()
	if d.GlobalFile != RecommendedHomeFile || d.EnvVar != "KUBECONFIG" || d.ExplicitFileFlag != "kubeconfig" ||
		d.GlobalFileSubpath != filepath.Join(".kube", "config") || !d.LoadingRules.DoNotResolvePaths {
		t.Errorf("NewDefaultPathOptions = %+v", d)
	}
}

func TestModifyConfigThroughPathOptionsEnv(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a", kubeconfigYAML("", []string{"ca:server=https://a"}, nil, nil))
	b := writeFile(t, dir, "b", kubeconfigYAML("", []string{"cb:server=https://b"}, nil, nil))
	t.Setenv("TEST_KUBECONFIG", a+string(os.PathListSeparator)+b)
	o := &PathOptions{EnvVar: "TEST_KUBECONFIG", LoadingRules: &ClientConfigLoadingRules{DoNotResolvePaths: true}}
	config, err := o.GetStartingConfig()
	if err != nil {
		t.Fatal(err)
	}
	config.Clusters["cb"].InsecureSkipTLSVerify = true
	if err := ModifyConfig(o, *config, false); err != nil {
		t.Fatal(err)
	}
	if !mustLoad(t, b).Clusters["cb"].InsecureSkipTLSVerify {
		t.Errorf("cb not written back to %s", b)
	}
	if strings.Contains(string(must(os.ReadFile(a))), "insecure") {
		t.Errorf("cb change leaked into %s", a)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestGetConfigFromFileOrDie(t *testing.T) {
	dir := t.TempDir()
	if c := GetConfigFromFileOrDie(filepath.Join(dir, "missing")); c == nil || !clientcmdapi.IsConfigEmpty(c) {
		t.Errorf("missing file must give an empty config, got %+v", c)
	}
	path := writeFile(t, dir, "config", kubeconfigYAML("x", nil, nil, nil))
	if c := GetConfigFromFileOrDie(path); c.CurrentContext != "x" {
		t.Errorf("got %+v", c)
	}
}

func TestModifyConfigPreferencesGoToFirstDifferingFile(t *testing.T) {
	_, first, second, rules := twoFileSetup(t)
	config, err := rules.GetStartingConfig()
	if err != nil {
		t.Fatal(err)
	}
	config.Preferences.Colors = true
	if err := ModifyConfig(rules, *config, false); err != nil {
		t.Fatal(err)
	}
	if !mustLoad(t, first).Preferences.Colors || mustLoad(t, second).Preferences.Colors {
		t.Errorf("preferences must go to the first file only")
	}
}
