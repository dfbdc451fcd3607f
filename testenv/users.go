package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kubeclient/client-go/rest"
)

// Built-in identities in kube-apiserver's static token file.
const (
	// AdminUser belongs to system:masters and may do anything.
	AdminUser = "admin"
	// AdminToken authenticates AdminUser.
	AdminToken = "testenv-admin-token"
	// UnprivilegedUser has no role bindings: RBAC forbids it everything
	// that system:authenticated is not granted.
	UnprivilegedUser = "jane"
	// UnprivilegedToken authenticates UnprivilegedUser.
	UnprivilegedToken = "testenv-jane-token"
)

// userToken is the bearer token of an Options.Users identity.
func userToken(name string) string { return "testenv-token-" + name }

// writeTokens writes the static token file: the built-in identities, then
// users. It fills env.tokens.
func (env *Env) writeTokens(users []User) (string, error) {
	all := append([]User{
		{Name: AdminUser, Groups: []string{"system:masters"}},
		{Name: UnprivilegedUser},
	}, users...)
	env.tokens = map[string]string{AdminUser: AdminToken, UnprivilegedUser: UnprivilegedToken}
	var b strings.Builder
	for i, u := range all {
		if u.Name == "" || strings.ContainsAny(u.Name, ",\"\n") {
			return "", fmt.Errorf("testenv: user name %q is empty or holds a comma, quote or newline", u.Name)
		}
		token := env.tokens[u.Name]
		if i >= 2 {
			if token != "" {
				return "", fmt.Errorf("testenv: user %q is declared twice", u.Name)
			}
			token = userToken(u.Name)
			env.tokens[u.Name] = token
		}
		fmt.Fprintf(&b, "%s,%s,%s", token, u.Name, u.Name+"-uid")
		if len(u.Groups) > 0 {
			fmt.Fprintf(&b, ",%s", strconv.Quote(strings.Join(u.Groups, ",")))
		}
		b.WriteByte('\n')
	}
	path := filepath.Join(env.Dir, "tokens.csv")
	return path, os.WriteFile(path, []byte(b.String()), 0o600)
}

// AdminConfig returns a new copy of the admin client configuration.
func (env *Env) AdminConfig() *rest.Config { return rest.CopyConfig(env.Config) }

// UnprivilegedConfig returns a configuration for UnprivilegedUser.
func (env *Env) UnprivilegedConfig() *rest.Config { return env.TokenConfig(UnprivilegedToken) }

// UserConfig returns a configuration for the Options.Users identity (or
// built-in identity) named name; it panics for an unknown name, a mistake
// in the test itself.
func (env *Env) UserConfig(name string) *rest.Config {
	token, ok := env.tokens[name]
	if !ok {
		panic(fmt.Sprintf("testenv: no user %q; declare it in Options.Users", name))
	}
	return env.TokenConfig(token)
}

// ImpersonatingConfig returns an admin configuration that impersonates
// user with groups (system:masters may impersonate anyone).
func (env *Env) ImpersonatingConfig(user string, groups ...string) *rest.Config {
	cfg := env.AdminConfig()
	cfg.Impersonate = rest.ImpersonationConfig{UserName: user, Groups: groups}
	return cfg
}

// AnonymousConfig returns a configuration that trusts the server but sends
// no credentials.
func (env *Env) AnonymousConfig() *rest.Config {
	return &rest.Config{
		Host:            env.Host,
		TLSClientConfig: rest.TLSClientConfig{CAFile: env.CAFile},
		// Tests create objects in bursts; client-side throttling would
		// only slow them down.
		QPS:   200,
		Burst: 400,
	}
}

// TokenConfig returns a configuration that sends token as a bearer token.
func (env *Env) TokenConfig(token string) *rest.Config {
	cfg := env.AnonymousConfig()
	cfg.BearerToken = token
	return cfg
}
