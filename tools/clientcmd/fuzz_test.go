package clientcmd

import (
	"testing"
)

// FuzzLoad feeds arbitrary bytes to Load and to the whole path up to a
// rest.Config; neither may panic, and whatever Load accepts must survive a
// Write/Load round trip.
func FuzzLoad(f *testing.F) {
	seeds := []string{
		"",
		"apiVersion: v1\nkind: Config\n",
		kubeconfigYAML("ctx", []string{"c:server=https://x;insecure-skip-tls-verify=true"}, []string{"u:token=t"}, []string{"ctx:cluster=c;user=u;namespace=ns"}),
		"clusters: [{name: a, cluster: {server: 1}}]",
		"users: [{name: u, user: {exec: {command: x, env: [{}]}}}]",
		`{"kind":"Config","apiVersion":"v1","clusters":null}`,
		"contexts:\n- name: \n  context: null\n",
		"extensions: [{name: e, extension: 5}]",
		"apiVersion: v2\nkind: Config\n",
		"- a\n- b\n",
		"\x00\xff",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		config, err := Load(data)
		if err != nil {
			return
		}
		if config == nil {
			t.Fatal("Load returned neither config nor error")
		}
		_ = Validate(*config)
		// Token files named by the input are not read: the input could
		// name an endless device.
		for _, authInfo := range config.AuthInfos {
			if authInfo != nil {
				authInfo.TokenFile = ""
			}
		}
		_, _ = NewDefaultClientConfig(*config, &ConfigOverrides{}).ClientConfig()
		out, err := Write(*config)
		if err != nil {
			return
		}
		if _, err := Load(out); err != nil {
			t.Fatalf("Load(Write(config)) failed: %v\ninput: %q\nwritten: %q", err, data, out)
		}
	})
}
