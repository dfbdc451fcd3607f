package api

import (
	"errors"
	"fmt"
)

// IsConfigEmpty reports whether config holds nothing at all: no clusters,
// users, contexts, current context, preferences or extensions.
func IsConfigEmpty(config *Config) bool {
	return len(config.Clusters) == 0 &&
		len(config.AuthInfos) == 0 &&
		len(config.Contexts) == 0 &&
		config.CurrentContext == "" &&
		!config.Preferences.Colors &&
		len(config.Preferences.Extensions) == 0 &&
		len(config.Extensions) == 0
}

// MinifyConfig trims config down to its current context and the cluster and
// user that context refers to. It fails when the current context is unset or
// refers to entries that do not exist.
func MinifyConfig(config *Config) error {
	name := config.CurrentContext
	if name == "" {
		return errors.New("current-context must exist in order to minify")
	}
	ctx, ok := config.Contexts[name]
	if !ok {
		return fmt.Errorf("cannot locate context %v", name)
	}

	clusters := map[string]*Cluster{}
	if ctx.Cluster != "" {
		cluster, ok := config.Clusters[ctx.Cluster]
		if !ok {
			return fmt.Errorf("cannot locate cluster %v", ctx.Cluster)
		}
		clusters[ctx.Cluster] = cluster
	}

	users := map[string]*AuthInfo{}
	if ctx.AuthInfo != "" {
		user, ok := config.AuthInfos[ctx.AuthInfo]
		if !ok {
			return fmt.Errorf("cannot locate user %v", ctx.AuthInfo)
		}
		users[ctx.AuthInfo] = user
	}

	config.Contexts = map[string]*Context{name: ctx}
	config.Clusters = clusters
	config.AuthInfos = users
	return nil
}
