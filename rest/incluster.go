package rest

import (
	"net"
	"os"

	"k8s.io/klog/v2"

	certutil "github.com/kubeclient/client-go/util/cert"
)

// Where the kubelet mounts a pod's service account credentials. Variables so
// tests can point them at a temporary directory.
var (
	serviceAccountTokenFile = "/var/run/secrets/kubernetes.io/serviceaccount/token"
	serviceAccountCAFile    = "/var/run/secrets/kubernetes.io/serviceaccount/ca.crt"
)

// InClusterConfig returns a Config that authenticates as the pod's service
// account and reaches the API server through the kubernetes service. It
// returns ErrNotInCluster when KUBERNETES_SERVICE_HOST or
// KUBERNETES_SERVICE_PORT is unset. The token file is recorded as
// BearerTokenFile so rotated tokens are picked up.
func InClusterConfig() (*Config, error) {
	host, port := os.Getenv("KUBERNETES_SERVICE_HOST"), os.Getenv("KUBERNETES_SERVICE_PORT")
	if host == "" || port == "" {
		return nil, ErrNotInCluster
	}

	token, err := os.ReadFile(serviceAccountTokenFile)
	if err != nil {
		return nil, err
	}

	var tlsConfig TLSClientConfig
	if _, err := certutil.NewPool(serviceAccountCAFile); err != nil {
		klog.Errorf("Expected to load root CA config from %s, but got err: %v", serviceAccountCAFile, err)
	} else {
		tlsConfig.CAFile = serviceAccountCAFile
	}

	return &Config{
		Host:            "https://" + net.JoinHostPort(host, port),
		TLSClientConfig: tlsConfig,
		BearerToken:     string(token),
		BearerTokenFile: serviceAccountTokenFile,
	}, nil
}
