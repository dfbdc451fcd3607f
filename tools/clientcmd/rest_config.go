package clientcmd

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"unicode"

	restclient "github.com/kubeclient/client-go/rest"
	clientauth "github.com/kubeclient/client-go/tools/auth"
	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// execClusterExtensionKey is the cluster extension whose value is handed to
// exec credential plugins as their per-cluster config.
const execClusterExtensionKey = "client.authentication.k8s.io/exec"

// ClientConfig builds the rest.Config for the selected context.
//
// A context, user or cluster named by the overrides but absent from the
// config is reported first; then the selection is validated. The server,
// proxy, compression, timeout and impersonation settings always apply.
// Credentials and TLS trust settings apply only when the connection uses
// TLS; when the user has no credentials and the config is interactive, a
// username and password are prompted for (once).
func (config *DirectClientConfig) ClientConfig() (*restclient.Config, error) {
	s := config.resolve()
	if err := s.firstErr(); err != nil {
		return nil, err
	}
	if err := config.ConfirmUsable(); err != nil {
		return nil, err
	}
	authInfo, cluster := s.authInfo, s.cluster

	out := &restclient.Config{Host: cluster.Server, DisableCompression: cluster.DisableCompression}
	if cluster.ProxyURL != "" {
		proxy, err := parseClusterProxyURL(cluster.ProxyURL)
		if err != nil {
			return nil, err
		}
		out.Proxy = http.ProxyURL(proxy)
	}
	if o := config.overrides; o != nil && o.Timeout != "" {
		var err error
		if out.Timeout, err = ParseTimeout(o.Timeout); err != nil {
			return nil, err
		}
	}
	out.Host = withoutQueryAndFragment(out.Host)
	if len(authInfo.Impersonate) > 0 {
		out.Impersonate = impersonationOf(authInfo)
	}

	if restclient.IsConfigTransportTLS(*out) {
		var persister restclient.AuthProviderConfigPersister
		if config.configAccess != nil {
			persister = PersisterForUser(config.configAccess, s.authInfoName)
		}
		user, err := config.userIdentity(authInfo, config.fallbackReader, persister, cluster)
		if err != nil {
			return nil, err
		}
		applyUserIdentity(out, user)
		applyServerIdentity(out, cluster)
	}
	return out, nil
}

// withoutQueryAndFragment drops the query and fragment of a server URL that
// has a path; any other server is returned as is.
func withoutQueryAndFragment(server string) string {
	u, err := url.ParseRequestURI(server)
	if err != nil || u.Opaque != "" || len(u.Path) <= 1 {
		return server
	}
	u.RawQuery, u.Fragment = "", ""
	return u.String()
}

// impersonationOf returns the impersonation settings of authInfo.
func impersonationOf(authInfo clientcmdapi.AuthInfo) restclient.ImpersonationConfig {
	return restclient.ImpersonationConfig{
		UserName: authInfo.Impersonate,
		UID:      authInfo.ImpersonateUID,
		Groups:   authInfo.ImpersonateGroups,
		Extra:    authInfo.ImpersonateUserExtra,
	}
}

// applyServerIdentity sets on out how the server is recognised: the CA and
// the TLS verification settings of cluster, where set.
func applyServerIdentity(out *restclient.Config, cluster clientcmdapi.Cluster) {
	if cluster.CertificateAuthority != "" {
		out.CAFile = cluster.CertificateAuthority
	}
	if len(cluster.CertificateAuthorityData) > 0 {
		out.CAData = cluster.CertificateAuthorityData
	}
	if cluster.InsecureSkipTLSVerify {
		out.Insecure = true
	}
	if cluster.TLSServerName != "" {
		out.ServerName = cluster.TLSServerName
	}
}

// applyUserIdentity copies the set credential fields of user onto out.
func applyUserIdentity(out, user *restclient.Config) {
	if user.BearerToken != "" {
		out.BearerToken = user.BearerToken
	}
	if user.BearerTokenFile != "" {
		out.BearerTokenFile = user.BearerTokenFile
	}
	if user.Impersonate.UserName != "" {
		out.Impersonate.UserName = user.Impersonate.UserName
	}
	if user.Impersonate.UID != "" {
		out.Impersonate.UID = user.Impersonate.UID
	}
	if len(user.Impersonate.Groups) > 0 {
		out.Impersonate.Groups = user.Impersonate.Groups
	}
	if user.Impersonate.Extra != nil {
		if out.Impersonate.Extra == nil {
			out.Impersonate.Extra = map[string][]string{}
		}
		for k, v := range user.Impersonate.Extra {
			out.Impersonate.Extra[k] = v
		}
	}
	if user.CertFile != "" {
		out.CertFile = user.CertFile
	}
	if len(user.CertData) > 0 {
		out.CertData = user.CertData
	}
	if user.KeyFile != "" {
		out.KeyFile = user.KeyFile
	}
	if len(user.KeyData) > 0 {
		out.KeyData = user.KeyData
	}
	if user.Username != "" {
		out.Username = user.Username
	}
	if user.Password != "" {
		out.Password = user.Password
	}
	if user.AuthProvider != nil {
		out.AuthProvider = user.AuthProvider
	}
	if user.AuthConfigPersister != nil {
		out.AuthConfigPersister = user.AuthConfigPersister
	}
	if user.ExecProvider != nil {
		out.ExecProvider = user.ExecProvider
	}
}

// userIdentity gathers the credentials of authInfo into a partial
// rest.Config. When they do not identify a user and fallbackReader is set,
// it prompts for a username and password, remembering the answer; prompted
// values fill only what the config left empty.
func (config *DirectClientConfig) userIdentity(authInfo clientcmdapi.AuthInfo, fallbackReader io.Reader, persister restclient.AuthProviderConfigPersister, cluster clientcmdapi.Cluster) (*restclient.Config, error) {
	token, tokenFile, err := bearerTokenOf(authInfo)
	if err != nil {
		return nil, err
	}
	user := &restclient.Config{BearerToken: token, BearerTokenFile: tokenFile}
	if authInfo.Impersonate != "" {
		user.Impersonate = impersonationOf(authInfo)
	}
	if authInfo.ClientCertificate != "" || len(authInfo.ClientCertificateData) != 0 {
		user.TLSClientConfig = restclient.TLSClientConfig{
			CertFile: authInfo.ClientCertificate, CertData: authInfo.ClientCertificateData,
			KeyFile: authInfo.ClientKey, KeyData: authInfo.ClientKeyData,
		}
	}
	if authInfo.Username != "" || authInfo.Password != "" {
		user.Username, user.Password = authInfo.Username, authInfo.Password
	}
	if provider := authInfo.AuthProvider; provider != nil {
		user.AuthProvider, user.AuthConfigPersister = provider, persister
	}
	if authInfo.Exec != nil {
		// The plugin gets the cluster's exec extension as its config; its
		// install hint is shown on a terminal, so it must not drive it.
		exec := *authInfo.Exec
		exec.InstallHint = escapeTerminalControls(exec.InstallHint)
		exec.Config = cluster.Extensions[execClusterExtensionKey]
		user.ExecProvider = &exec
	}

	if identifiesUser(*user) || fallbackReader == nil {
		return user, nil
	}
	if config.prompted.username != "" && config.prompted.password != "" {
		user.Username = config.prompted.username
		user.Password = config.prompted.password
		return user, nil
	}
	info, err := NewPromptingAuthLoader(fallbackReader).Prompt()
	if err != nil {
		return nil, err
	}
	combined := userIdentityFromInfo(*info)
	applyUserIdentity(combined, user)
	config.prompted.username = combined.Username
	config.prompted.password = combined.Password
	return combined, nil
}

// bearerTokenOf returns the bearer token of authInfo: Token when set, else
// the content of TokenFile, read now. The file name is returned along so
// that the transport re-reads it.
func bearerTokenOf(authInfo clientcmdapi.AuthInfo) (token, tokenFile string, err error) {
	switch {
	case authInfo.Token != "":
		return authInfo.Token, authInfo.TokenFile, nil
	case authInfo.TokenFile != "":
		data, err := os.ReadFile(authInfo.TokenFile)
		if err != nil {
			return "", "", err
		}
		return string(data), authInfo.TokenFile, nil
	}
	return "", "", nil
}

// userIdentityFromInfo converts the credential fields of a tools/auth Info.
func userIdentityFromInfo(info clientauth.Info) *restclient.Config {
	return &restclient.Config{
		Username:        info.User,
		Password:        info.Password,
		BearerToken:     info.BearerToken,
		TLSClientConfig: restclient.TLSClientConfig{CertFile: info.CertFile, KeyFile: info.KeyFile},
	}
}

// identifiesUser reports whether config carries any way to authenticate.
func identifiesUser(config restclient.Config) bool {
	return len(config.Username) > 0 ||
		len(config.CertFile) > 0 || len(config.CertData) > 0 ||
		len(config.BearerToken) > 0 ||
		config.AuthProvider != nil ||
		config.ExecProvider != nil
}

// escapeTerminalControls replaces every character of s that could drive a
// terminal (control characters other than whitespace, escape sequences) by
// its U+XXXX notation, so an install hint cannot garble the terminal.
func escapeTerminalControls(s string) string {
	var b strings.Builder
	for _, r := range s {
		if printableOrSpace(r) {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "%U", r)
		}
	}
	return b.String()
}

// printableOrSpace reports whether r is a letter, mark, number, punctuation,
// symbol or separator, or one of tab, newline, vertical tab, form feed and
// carriage return.
func printableOrSpace(r rune) bool {
	if r >= '\t' && r <= '\r' {
		return true
	}
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z)
}
