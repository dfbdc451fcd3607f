package clientcmd

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

func TestLoadFromFileErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	_, err := LoadFromFile(missing)
	if !os.IsNotExist(err) {
		t.Fatalf("missing file: want an IsNotExist error, got %v", err)
	}

	bad := writeFile(t, dir, "bad.yaml", "clusters: [\n  - name: a\n  cluster: {server: \n")
	_, err = LoadFromFile(bad)
	if err == nil {
		t.Fatal("malformed YAML: want an error")
	}
	if !strings.Contains(err.Error(), bad) {
		t.Errorf("malformed YAML error %q does not name the file %s", err, bad)
	}
	if os.IsNotExist(err) {
		t.Errorf("malformed YAML error must not look like a missing file")
	}

	wrongKind := writeFile(t, dir, "wrong.yaml", "apiVersion: v1\nkind: Pod\n")
	if _, err := LoadFromFile(wrongKind); err == nil || !strings.Contains(err.Error(), wrongKind) {
		t.Errorf("wrong kind: want an error naming %s, got %v", wrongKind, err)
	}
}

func TestLoadFromFileSetsOriginAndMaps(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "config", kubeconfigYAML("ctx",
		[]string{"c1:server=https://one.example:6443"},
		[]string{"u1:token=abc"},
		[]string{"ctx:cluster=c1;user=u1;namespace=team"}))
	config, err := LoadFromFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if config.CurrentContext != "ctx" {
		t.Errorf("current context = %q", config.CurrentContext)
	}
	if got := config.Clusters["c1"]; got == nil || got.Server != "https://one.example:6443" || got.LocationOfOrigin != path {
		t.Errorf("cluster c1 = %+v", got)
	}
	if got := config.AuthInfos["u1"]; got == nil || got.Token != "abc" || got.LocationOfOrigin != path {
		t.Errorf("user u1 = %+v", got)
	}
	if got := config.Contexts["ctx"]; got == nil || got.Namespace != "team" || got.LocationOfOrigin != path {
		t.Errorf("context ctx = %+v", got)
	}

	empty := writeFile(t, dir, "empty", "")
	config, err = LoadFromFile(empty)
	if err != nil {
		t.Fatal(err)
	}
	if config.Clusters == nil || config.AuthInfos == nil || config.Contexts == nil {
		t.Errorf("empty file must give non-nil maps: %+v", config)
	}
}

func TestWriteToFileCreatesFolderWithMode0600(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "a", "b", "config")
	config := clientcmdapi.NewConfig()
	config.Clusters["c"] = &clientcmdapi.Cluster{Server: "https://c.example", CertificateAuthorityData: []byte("ca-bytes")}
	config.AuthInfos["u"] = &clientcmdapi.AuthInfo{Token: "tok", ImpersonateGroups: []string{"g1", "g2"}}
	config.Contexts["ctx"] = &clientcmdapi.Context{Cluster: "c", AuthInfo: "u", Namespace: "ns"}
	config.CurrentContext = "ctx"

	if err := WriteToFile(*config, target); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(target)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0600 {
		t.Errorf("mode = %v, want 0600", perm)
	}

	back, err := LoadFromFile(target)
	if err != nil {
		t.Fatal(err)
	}
	if back.CurrentContext != "ctx" ||
		back.Clusters["c"].Server != "https://c.example" ||
		string(back.Clusters["c"].CertificateAuthorityData) != "ca-bytes" ||
		back.AuthInfos["u"].Token != "tok" ||
		!reflect.DeepEqual(back.AuthInfos["u"].ImpersonateGroups, []string{"g1", "g2"}) ||
		back.Contexts["ctx"].Namespace != "ns" {
		t.Errorf("round trip lost data: %+v", back)
	}

	// Overwriting keeps the file and replaces the contents.
	config.CurrentContext = ""
	if err := WriteToFile(*config, target); err != nil {
		t.Fatal(err)
	}
	back, err = LoadFromFile(target)
	if err != nil {
		t.Fatal(err)
	}
	if back.CurrentContext != "" {
		t.Errorf("rewrite kept old current-context %q", back.CurrentContext)
	}
}

func TestLoadMergesFirstFileWins(t *testing.T) {
	dir := t.TempDir()
	first := writeFile(t, dir, "first", `apiVersion: v1
kind: Config
clusters:
- name: shared
  cluster:
    server: https://first.example
users:
- name: red-user
  user:
    token: red-token
contexts:
- name: first-ctx
  context: {cluster: shared, user: red-user}
extensions:
- name: ext-a
  extension: {from: first}
`)
	second := writeFile(t, dir, "second", `apiVersion: v1
kind: Config
current-context: second-ctx
preferences:
  colors: true
clusters:
- name: shared
  cluster:
    server: https://second.example
    insecure-skip-tls-verify: true
- name: only-second
  cluster:
    server: https://only-second.example
users:
- name: red-user
  user:
    username: red
    password: secret
contexts:
- name: second-ctx
  context: {cluster: only-second, user: red-user}
extensions:
- name: ext-a
  extension: {from: second}
- name: ext-b
  extension: {from: second}
`)
	third := writeFile(t, dir, "third", `apiVersion: v1
kind: Config
current-context: third-ctx
`)

	rules := &ClientConfigLoadingRules{Precedence: []string{first, filepath.Join(dir, "absent"), "", second, third}}
	config, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}

	if config.CurrentContext != "second-ctx" {
		t.Errorf("current-context = %q, want the first file that sets it (second-ctx)", config.CurrentContext)
	}
	if !config.Preferences.Colors {
		t.Errorf("preferences.colors from the second file was lost")
	}
	shared := config.Clusters["shared"]
	if shared.Server != "https://first.example" || shared.InsecureSkipTLSVerify {
		t.Errorf("cluster shared = %+v, want the first file's entry whole", shared)
	}
	if shared.LocationOfOrigin != first {
		t.Errorf("cluster shared origin = %q, want %q", shared.LocationOfOrigin, first)
	}
	if c := config.Clusters["only-second"]; c == nil || c.LocationOfOrigin != second {
		t.Errorf("cluster only-second = %+v", c)
	}
	red := config.AuthInfos["red-user"]
	if red.Token != "red-token" || red.Username != "" || red.Password != "" {
		t.Errorf("red-user = %+v: even non-conflicting fields of the second file's entry must be discarded", red)
	}
	if len(config.Contexts) != 2 {
		t.Errorf("contexts = %v, want first-ctx and second-ctx", config.Contexts)
	}
	if len(config.Extensions) != 2 {
		t.Fatalf("extensions = %v, want ext-a and ext-b", config.Extensions)
	}
	if !strings.Contains(extensionText(t, config.Extensions["ext-a"]), "first") {
		t.Errorf("ext-a must come from the first file, got %s", extensionText(t, config.Extensions["ext-a"]))
	}
}

func extensionText(t *testing.T, obj any) string {
	t.Helper()
	if obj == nil {
		return "<nil>"
	}
	v := reflect.ValueOf(obj)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if f := v.FieldByName("Raw"); f.IsValid() {
		return string(f.Bytes())
	}
	return ""
}

func TestLoadReportsBadFileButKeepsOthers(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good", kubeconfigYAML("ctx", []string{"c:server=https://good.example"}, nil, nil))
	bad := writeFile(t, dir, "bad", "{{{{ not yaml")
	config, err := (&ClientConfigLoadingRules{Precedence: []string{bad, good}}).Load()
	if err == nil {
		t.Fatal("want an error for the undecodable file")
	}
	if !strings.Contains(err.Error(), `error loading config file "`+bad+`"`) {
		t.Errorf("error %q does not name %s", err, bad)
	}
	if strings.Count(err.Error(), bad) != 1 {
		t.Errorf("error %q names the file more than once", err)
	}
	if config == nil || config.Clusters["c"] == nil {
		t.Errorf("the readable file must still be merged, got %+v", config)
	}
}

func TestExplicitPath(t *testing.T) {
	dir := t.TempDir()
	explicit := writeFile(t, dir, "explicit", kubeconfigYAML("", []string{"e:server=https://explicit.example"}, nil, nil))
	other := writeFile(t, dir, "other", kubeconfigYAML("", []string{"o:server=https://other.example"}, nil, nil))

	rules := &ClientConfigLoadingRules{ExplicitPath: explicit, Precedence: []string{other}}
	config, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := config.Clusters["o"]; ok {
		t.Errorf("precedence files must be ignored when an explicit path is set")
	}
	if _, ok := config.Clusters["e"]; !ok {
		t.Errorf("explicit file not loaded")
	}
	if got := rules.GetLoadingPrecedence(); !reflect.DeepEqual(got, []string{explicit}) {
		t.Errorf("GetLoadingPrecedence = %v", got)
	}
	if !rules.IsExplicitFile() || rules.GetExplicitFile() != explicit || rules.GetDefaultFilename() != explicit {
		t.Errorf("explicit accessors wrong")
	}

	rules.ExplicitPath = filepath.Join(dir, "nope")
	if _, err := rules.Load(); !os.IsNotExist(err) {
		t.Errorf("missing explicit file: want IsNotExist error, got %v", err)
	}
}

func TestKubeconfigEnvPrecedence(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a", kubeconfigYAML("from-a", nil, nil, nil))
	b := writeFile(t, dir, "b", kubeconfigYAML("from-b", nil, nil, nil))
	t.Setenv(RecommendedConfigPathEnvVar, strings.Join([]string{b, a, b}, string(os.PathListSeparator)))

	rules := NewDefaultClientConfigLoadingRules()
	if !reflect.DeepEqual(rules.Precedence, []string{b, a}) {
		t.Errorf("precedence = %v, want [b a] without the duplicate", rules.Precedence)
	}
	if !rules.WarnIfAllMissing {
		t.Errorf("WarnIfAllMissing must be set when KUBECONFIG is used")
	}
	rules.MigrationRules = nil
	config, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	if config.CurrentContext != "from-b" {
		t.Errorf("current-context = %q, want from-b (first in KUBECONFIG)", config.CurrentContext)
	}

	// Swapping the order swaps the winner.
	t.Setenv(RecommendedConfigPathEnvVar, a+string(os.PathListSeparator)+b)
	rules = NewDefaultClientConfigLoadingRules()
	rules.MigrationRules = nil
	config, err = rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	if config.CurrentContext != "from-a" {
		t.Errorf("current-context = %q, want from-a", config.CurrentContext)
	}
}

func TestDefaultRulesUseHomeFile(t *testing.T) {
	t.Setenv(RecommendedConfigPathEnvVar, "")
	rules := NewDefaultClientConfigLoadingRules()
	if !reflect.DeepEqual(rules.Precedence, []string{RecommendedHomeFile}) {
		t.Errorf("precedence = %v, want [%s]", rules.Precedence, RecommendedHomeFile)
	}
	if rules.WarnIfAllMissing {
		t.Errorf("WarnIfAllMissing must be off for the home file")
	}
	if !strings.HasSuffix(RecommendedHomeFile, filepath.Join(".kube", "config")) {
		t.Errorf("RecommendedHomeFile = %q", RecommendedHomeFile)
	}
	if _, ok := rules.MigrationRules[RecommendedHomeFile]; !ok {
		t.Errorf("migration rules %v lack the home file", rules.MigrationRules)
	}
}

func TestWarnIfAllMissing(t *testing.T) {
	dir := t.TempDir()
	missing1, missing2 := filepath.Join(dir, "m1"), filepath.Join(dir, "m2")
	var warned []error
	rules := &ClientConfigLoadingRules{
		Precedence:       []string{missing1, missing2},
		WarnIfAllMissing: true,
		Warner:           func(err error) { warned = append(warned, err) },
	}
	if _, err := rules.Load(); err != nil {
		t.Fatal(err)
	}
	if len(warned) != 1 {
		t.Fatalf("warnings = %v, want one", warned)
	}
	var missingErr MissingConfigError
	if !errors.As(warned[0], &missingErr) || !reflect.DeepEqual(missingErr.Missing, []string{missing1, missing2}) {
		t.Errorf("warning = %#v", warned[0])
	}
	if want := "Config not found: " + missing1 + ", " + missing2; warned[0].Error() != want {
		t.Errorf("message = %q, want %q", warned[0].Error(), want)
	}

	// One present file silences the warning.
	present := writeFile(t, dir, "present", kubeconfigYAML("", nil, nil, nil))
	warned = nil
	rules.Precedence = append(rules.Precedence, present)
	if _, err := rules.Load(); err != nil {
		t.Fatal(err)
	}
	if len(warned) != 0 {
		t.Errorf("unexpected warnings %v", warned)
	}

	// A nil handler must not panic.
	WarningHandler(nil).Warn(errors.New("logged only"))
}

func TestMigrate(t *testing.T) {
	dir := t.TempDir()
	source := writeFile(t, dir, "old/.kubeconfig", kubeconfigYAML("migrated", nil, nil, nil))
	if err := os.Chmod(source, 0640); err != nil {
		t.Fatal(err)
	}
	destination := filepath.Join(dir, "new-config")
	rules := &ClientConfigLoadingRules{
		Precedence:     []string{destination},
		MigrationRules: map[string]string{destination: source},
	}
	config, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	if config.CurrentContext != "migrated" {
		t.Errorf("destination not migrated before loading: %q", config.CurrentContext)
	}
	info, err := os.Stat(destination)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm&^0640 != 0 {
		t.Errorf("migrated mode = %v, want at most the source's 0640", perm)
	}

	// An existing destination is never overwritten.
	writeFile(t, dir, "new-config", kubeconfigYAML("kept", nil, nil, nil))
	if err := rules.Migrate(); err != nil {
		t.Fatal(err)
	}
	if config, _ := LoadFromFile(destination); config.CurrentContext != "kept" {
		t.Errorf("existing destination overwritten")
	}

	// A folder as the source is an error.
	rules.MigrationRules = map[string]string{filepath.Join(dir, "x"): dir}
	if err := rules.Migrate(); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory source: got %v", err)
	}
}

func TestRelativePathsResolveAgainstTheirFile(t *testing.T) {
	dir := t.TempDir()
	first := writeFile(t, dir, "one/config", `apiVersion: v1
kind: Config
clusters:
- name: c1
  cluster:
    server: https://c1.example
    certificate-authority: ca.crt
users:
- name: u1
  user:
    client-certificate: certs/client.crt
    client-key: ../keys/client.key
    tokenFile: token
- name: u-path-exec
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: ./bin/plugin
- name: u-bare-exec
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: plugin
`)
	second := writeFile(t, dir, "two/nested/config", `apiVersion: v1
kind: Config
clusters:
- name: c2
  cluster:
    server: https://c2.example
    certificate-authority: /abs/ca.crt
users:
- name: u2
  user:
    tokenFile: tok
`)
	firstDir, secondDir := filepath.Dir(first), filepath.Dir(second)

	config, err := (&ClientConfigLoadingRules{Precedence: []string{first, second}}).Load()
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct{ name, got, want string }{
		{"c1 CA", config.Clusters["c1"].CertificateAuthority, filepath.Join(firstDir, "ca.crt")},
		{"c2 absolute CA", config.Clusters["c2"].CertificateAuthority, "/abs/ca.crt"},
		{"u1 cert", config.AuthInfos["u1"].ClientCertificate, filepath.Join(firstDir, "certs", "client.crt")},
		{"u1 key", config.AuthInfos["u1"].ClientKey, filepath.Join(dir, "keys", "client.key")},
		{"u1 token file", config.AuthInfos["u1"].TokenFile, filepath.Join(firstDir, "token")},
		{"u2 token file", config.AuthInfos["u2"].TokenFile, filepath.Join(secondDir, "tok")},
		{"exec with separator", config.AuthInfos["u-path-exec"].Exec.Command, filepath.Join(firstDir, "bin", "plugin")},
		{"bare exec", config.AuthInfos["u-bare-exec"].Exec.Command, "plugin"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.name, c.got, c.want)
		}
	}

	raw, err := (&ClientConfigLoadingRules{Precedence: []string{first}, DoNotResolvePaths: true}).Load()
	if err != nil {
		t.Fatal(err)
	}
	if got := raw.Clusters["c1"].CertificateAuthority; got != "ca.crt" {
		t.Errorf("DoNotResolvePaths: CA = %q, want ca.crt", got)
	}
}

func TestResolveAndRelativizeHelpers(t *testing.T) {
	base := filepath.FromSlash("/base/dir")
	a, b, empty, abs := "a.crt", filepath.FromSlash("sub/b.key"), "", filepath.FromSlash("/elsewhere/c")
	refs := []*string{&a, &b, &empty, &abs}
	if err := ResolvePaths(refs, base); err != nil {
		t.Fatal(err)
	}
	if a != filepath.Join(base, "a.crt") || b != filepath.Join(base, "sub", "b.key") || empty != "" || abs != filepath.FromSlash("/elsewhere/c") {
		t.Errorf("ResolvePaths gave %q %q %q %q", a, b, empty, abs)
	}
	if err := RelativizePathWithNoBacksteps(refs, base); err != nil {
		t.Fatal(err)
	}
	if a != "a.crt" || b != filepath.Join("sub", "b.key") || abs != filepath.FromSlash("/elsewhere/c") {
		t.Errorf("RelativizePathWithNoBacksteps gave %q %q %q", a, b, abs)
	}
	rel := filepath.FromSlash("../outside")
	if err := RelativizePathWithNoBacksteps([]*string{&rel}, "relative-base"); err == nil || !strings.Contains(err.Error(), "requires backsteps") {
		t.Errorf("relative path with backsteps: got %v", err)
	}

	cluster := &clientcmdapi.Cluster{CertificateAuthority: filepath.FromSlash("/cfg/ca/ca.crt"), LocationOfOrigin: filepath.FromSlash("/cfg/config")}
	if err := RelativizeClusterLocalPaths(cluster); err != nil {
		t.Fatal(err)
	}
	if cluster.CertificateAuthority != filepath.Join("ca", "ca.crt") {
		t.Errorf("RelativizeClusterLocalPaths = %q", cluster.CertificateAuthority)
	}
	if err := RelativizeClusterLocalPaths(&clientcmdapi.Cluster{Server: "https://x"}); err == nil || !strings.Contains(err.Error(), "no location of origin for https://x") {
		t.Errorf("no origin: %v", err)
	}
	authInfo := &clientcmdapi.AuthInfo{ClientKey: "k.key", LocationOfOrigin: filepath.FromSlash("/cfg/config")}
	if err := RelativizeAuthInfoLocalPaths(authInfo); err != nil || authInfo.ClientKey != "k.key" {
		t.Errorf("RelativizeAuthInfoLocalPaths = %q, %v", authInfo.ClientKey, err)
	}

	config := clientcmdapi.NewConfig()
	config.Clusters["c"] = &clientcmdapi.Cluster{CertificateAuthority: "ca"}
	config.AuthInfos["u"] = &clientcmdapi.AuthInfo{ClientCertificate: "crt", Exec: &clientcmdapi.ExecConfig{Command: "plug"}}
	if n := len(GetConfigFileReferences(config)); n != 4 {
		t.Errorf("GetConfigFileReferences = %d refs, want 4 (bare exec command excluded)", n)
	}
	if err := ResolveConfigPaths(config, base); err != nil {
		t.Fatal(err)
	}
	if config.Clusters["c"].CertificateAuthority != filepath.Join(base, "ca") {
		t.Errorf("ResolveConfigPaths CA = %q", config.Clusters["c"].CertificateAuthority)
	}
	if err := RelativizeConfigPaths(config, base); err != nil {
		t.Fatal(err)
	}
	if config.AuthInfos["u"].ClientCertificate != "crt" {
		t.Errorf("RelativizeConfigPaths cert = %q", config.AuthInfos["u"].ClientCertificate)
	}
	if got, _ := MakeRelative("", base); got != "" {
		t.Errorf("MakeRelative of empty = %q", got)
	}
}

func TestGetDefaultFilename(t *testing.T) {
	dir := t.TempDir()
	absent1, absent2 := filepath.Join(dir, "x"), filepath.Join(dir, "y")
	present := writeFile(t, dir, "present", "")
	rules := &ClientConfigLoadingRules{Precedence: []string{absent1, present, absent2}}
	if got := rules.GetDefaultFilename(); got != present {
		t.Errorf("GetDefaultFilename = %q, want the first existing file", got)
	}
	rules.Precedence = []string{absent1, absent2}
	if got := rules.GetDefaultFilename(); got != absent1 {
		t.Errorf("GetDefaultFilename = %q, want the first file", got)
	}
	got := rules.GetLoadingPrecedence()
	got[0] = "mutated"
	if rules.Precedence[0] != absent1 {
		t.Errorf("GetLoadingPrecedence must return a copy")
	}
}
