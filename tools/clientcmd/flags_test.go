package clientcmd

import (
	"reflect"
	"testing"

	"github.com/spf13/pflag"

	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

func TestBindOverrideFlagsParsesEveryFlag(t *testing.T) {
	overrides := &ConfigOverrides{}
	flags := pflag.NewFlagSet("test", pflag.ContinueOnError)
	BindOverrideFlags(overrides, flags, RecommendedConfigOverrideFlags(""))

	args := []string{
		"--client-certificate=/c.crt", "--client-key=/c.key", "--token=tok",
		"--as=alice", "--as-uid=uid-1", "--as-group=g1", "--as-group=g2",
		"--username=admin", "--password=pw",
		"--server=https://flag:6443", "--certificate-authority=/ca.crt", "--insecure-skip-tls-verify",
		"--tls-server-name=sni", "--proxy-url=http://proxy", "--disable-compression",
		"--cluster=cl", "--user=us", "-n", "ns/team",
		"--context=ctx", "--request-timeout=5s",
	}
	if err := flags.Parse(args); err != nil {
		t.Fatal(err)
	}
	want := ConfigOverrides{
		AuthInfo: clientcmdapi.AuthInfo{
			ClientCertificate: "/c.crt", ClientKey: "/c.key", Token: "tok",
			Impersonate: "alice", ImpersonateUID: "uid-1", ImpersonateGroups: []string{"g1", "g2"},
			Username: "admin", Password: "pw",
		},
		ClusterInfo: clientcmdapi.Cluster{
			Server: "https://flag:6443", CertificateAuthority: "/ca.crt", InsecureSkipTLSVerify: true,
			TLSServerName: "sni", ProxyURL: "http://proxy", DisableCompression: true,
		},
		Context:        clientcmdapi.Context{Cluster: "cl", AuthInfo: "us", Namespace: "team"},
		CurrentContext: "ctx",
		Timeout:        "5s",
	}
	if !reflect.DeepEqual(*overrides, want) {
		t.Errorf("overrides =\n%+v\nwant\n%+v", *overrides, want)
	}

	for _, name := range []string{FlagCertFile, FlagKeyFile, FlagBearerToken, FlagImpersonate, FlagImpersonateUID, FlagImpersonateGroup, FlagUsername, FlagPassword} {
		if got := flags.Lookup(name).Annotations["classified"]; !reflect.DeepEqual(got, []string{"true"}) {
			t.Errorf("flag %s annotations = %v, want classified", name, got)
		}
	}
	if got := flags.Lookup(FlagAPIServer).Annotations; len(got) != 0 {
		t.Errorf("server flag must not be classified: %v", got)
	}
}

func TestBindOverrideFlagsDefaultsAndPrefix(t *testing.T) {
	overrides := &ConfigOverrides{}
	flags := pflag.NewFlagSet("test", pflag.ContinueOnError)
	names := RecommendedConfigOverrideFlags("kube-")
	names.ClusterOverrideFlags.ProxyURL.LongName = "" // dropped
	BindOverrideFlags(overrides, flags, names)
	if err := flags.Parse(nil); err != nil {
		t.Fatal(err)
	}
	if overrides.Timeout != "0" {
		t.Errorf("timeout default = %q, want 0", overrides.Timeout)
	}
	if overrides.AuthInfo.ImpersonateGroups == nil || len(overrides.AuthInfo.ImpersonateGroups) != 0 {
		t.Errorf("as-group default = %#v, want empty", overrides.AuthInfo.ImpersonateGroups)
	}
	if flags.Lookup("kube-server") == nil || flags.Lookup("server") != nil {
		t.Errorf("prefix not applied")
	}
	if flags.Lookup("kube-proxy-url") != nil {
		t.Errorf("a flag with an empty LongName must not be bound")
	}
	if f := flags.Lookup("kube-namespace"); f == nil || f.Shorthand != "n" {
		t.Errorf("namespace flag = %+v", f)
	}
	if err := flags.Parse([]string{"--kube-namespace=Namespaces/x", "--kube-insecure-skip-tls-verify=false"}); err != nil {
		t.Fatal(err)
	}
	if overrides.Context.Namespace != "x" || overrides.ClusterInfo.InsecureSkipTLSVerify {
		t.Errorf("got namespace %q insecure %v", overrides.Context.Namespace, overrides.ClusterInfo.InsecureSkipTLSVerify)
	}
}

func TestFlagInfoBinders(t *testing.T) {
	flags := pflag.NewFlagSet("test", pflag.ContinueOnError)
	var b bool
	var arr []string
	var s string
	FlagInfo{LongName: "b", Default: "not-a-bool"}.BindBoolFlag(flags, &b)
	FlagInfo{LongName: "arr", ShortName: "a", Default: "first"}.BindStringArrayFlag(flags, &arr)
	FlagInfo{LongName: "s", Default: "dflt"}.BindTransformingStringFlag(flags, &s, func(v string) (string, error) { return "<" + v + ">", nil })
	if b || !reflect.DeepEqual(arr, []string{"first"}) || s != "dflt" {
		t.Errorf("defaults: %v %v %q", b, arr, s)
	}
	if err := flags.Parse([]string{"-a", "x", "--s", "v"}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(arr, []string{"x"}) || s != "<v>" {
		t.Errorf("parsed: %v %q", arr, s)
	}
	if got := flags.Lookup("s").Value.Type(); got != "string" {
		t.Errorf("transforming flag type = %q", got)
	}
	// Annotating an unbound flag is a no-op.
	FlagInfo{}.AddSecretAnnotation(flags)
}

func TestRemoveNamespacesPrefix(t *testing.T) {
	for in, want := range map[string]string{
		"ns/foo": "foo", "NS/foo": "foo", "namespace/foo": "foo", "Namespaces/foo": "foo",
		"foo": "foo", "ns/": "ns/", "pods/foo": "pods/foo", "": "",
	} {
		if got, err := RemoveNamespacesPrefix(in); err != nil || got != want {
			t.Errorf("RemoveNamespacesPrefix(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}
