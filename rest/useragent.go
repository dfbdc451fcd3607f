package rest

import (
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"

	"github.com/kubeclient/client-go/pkg/version"
)

// DefaultKubernetesUserAgent returns the User-Agent clients send when none is
// configured: "<binary>/<version> (<os>/<arch>) kubernetes/<commit>", with
// the version cut at its first "-" and the commit shortened to seven
// characters. Missing parts read "unknown".
func DefaultKubernetesUserAgent() string {
	info := version.Get()
	return userAgentOf(os.Args[0], info.GitVersion, goruntime.GOOS, goruntime.GOARCH, info.GitCommit)
}

func userAgentOf(binary, gitVersion, goos, goarch, gitCommit string) string {
	name := "unknown"
	if binary != "" {
		name = filepath.Base(binary)
	}
	ver := "unknown"
	if gitVersion != "" {
		ver, _, _ = strings.Cut(gitVersion, "-")
	}
	commit := "unknown"
	if gitCommit != "" {
		commit = gitCommit
		if len(commit) > 7 {
			commit = commit[:7]
		}
	}
	return name + "/" + ver + " (" + goos + "/" + goarch + ") kubernetes/" + commit
}

// AddUserAgent sets config.UserAgent to the default user agent followed by
// "/" and userAgent, and returns config.
func AddUserAgent(config *Config, userAgent string) *Config {
	config.UserAgent = DefaultKubernetesUserAgent() + "/" + userAgent
	return config
}

// SetKubernetesDefaults fills in the defaults a client of the Kubernetes API
// needs; today that is only the default user agent.
func SetKubernetesDefaults(config *Config) error {
	if config.UserAgent == "" {
		config.UserAgent = DefaultKubernetesUserAgent()
	}
	return nil
}
