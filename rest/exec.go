package rest

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/kubeclient/client-go/internal/tlsfiles"
	clientauthenticationapi "github.com/kubeclient/client-go/pkg/apis/clientauthentication"
)

// ConfigToExecCluster describes the cluster of config the way exec
// credential plugins receive it (ExecCredential.Spec.Cluster).
func ConfigToExecCluster(config *Config) (*clientauthenticationapi.Cluster, error) {
	caData, err := tlsfiles.Read(config.CAData, config.CAFile)
	if err != nil {
		return nil, fmt.Errorf("failed to load CA bundle for execProvider: %v", err)
	}

	var proxyURL string
	if config.Proxy != nil {
		probe, err := http.NewRequest("", config.Host, nil)
		if err != nil {
			return nil, fmt.Errorf("failed to create proxy URL request for execProvider: %w", err)
		}
		u, err := config.Proxy(probe)
		if err != nil {
			return nil, fmt.Errorf("failed to get proxy URL for execProvider: %w", err)
		}
		if u != nil {
			proxyURL = u.String()
		}
	}

	cluster := &clientauthenticationapi.Cluster{
		Server:                   config.Host,
		TLSServerName:            config.ServerName,
		InsecureSkipTLSVerify:    config.Insecure,
		CertificateAuthorityData: caData,
		ProxyURL:                 proxyURL,
		DisableCompression:       config.DisableCompression,
	}
	if config.ExecProvider != nil {
		cluster.Config = config.ExecProvider.Config
	}
	return cluster, nil
}

// ExecClusterToConfig is the inverse of ConfigToExecCluster. The Config it
// returns carries no credentials.
func ExecClusterToConfig(cluster *clientauthenticationapi.Cluster) (*Config, error) {
	config := &Config{
		Host: cluster.Server,
		TLSClientConfig: TLSClientConfig{
			Insecure:   cluster.InsecureSkipTLSVerify,
			ServerName: cluster.TLSServerName,
			CAData:     cluster.CertificateAuthorityData,
		},
		DisableCompression: cluster.DisableCompression,
	}
	if cluster.ProxyURL != "" {
		u, err := url.Parse(cluster.ProxyURL)
		if err != nil {
			return nil, fmt.Errorf("cannot parse proxy URL: %w", err)
		}
		config.Proxy = http.ProxyURL(u)
	}
	return config, nil
}
