package rest

import (
	"fmt"
	"net/url"
	"path"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// DefaultServerURL parses host (a URL, a host or a host:port pair) and
// returns the server URL together with the versioned API path for
// groupVersion below apiPath. A host without a scheme gets https when
// defaultTLS is set and http otherwise; it may not carry a path.
func DefaultServerURL(host, apiPath string, groupVersion schema.GroupVersion, defaultTLS bool) (*url.URL, string, error) {
	if host == "" {
		return nil, "", fmt.Errorf("host must be a URL or a host:port pair")
	}
	u, err := url.Parse(host)
	if err != nil || u.Scheme == "" || u.Host == "" {
		scheme := "http://"
		if defaultTLS {
			scheme = "https://"
		}
		if u, err = url.Parse(scheme + host); err != nil {
			return nil, "", err
		}
		if u.Path != "" && u.Path != "/" {
			return nil, "", fmt.Errorf("host must be a URL or a host:port pair: %q", host)
		}
	}
	return u, DefaultVersionedAPIPath(apiPath, groupVersion), nil
}

// DefaultVersionedAPIPath joins apiPath, the group (if any) and the version:
// "/api/v1" or "/apis/apps/v1".
func DefaultVersionedAPIPath(apiPath string, groupVersion schema.GroupVersion) string {
	return path.Join("/", apiPath, groupVersion.Group, groupVersion.Version)
}

// DefaultServerUrlFor applies DefaultServerURL to config. An empty Host means
// "localhost"; https is the default whenever a CA, a client certificate or
// Insecure is configured.
func DefaultServerUrlFor(config *Config) (*url.URL, string, error) {
	wantsTLS := config.CAFile != "" || len(config.CAData) != 0 ||
		config.CertFile != "" || len(config.CertData) != 0 || config.Insecure
	host := config.Host
	if host == "" {
		host = "localhost"
	}
	var gv schema.GroupVersion
	if config.GroupVersion != nil {
		gv = *config.GroupVersion
	}
	return DefaultServerURL(host, config.APIPath, gv, wantsTLS)
}
