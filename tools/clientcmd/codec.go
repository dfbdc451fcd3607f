package clientcmd

import (
	"fmt"
	"os"
	"path/filepath"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/internal/secretfile"
	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
	clientcmdlatest "github.com/kubeclient/client-go/tools/clientcmd/api/latest"
)

// Load decodes kubeconfig bytes (YAML or JSON, apiVersion v1) into an
// internal Config. Empty input yields an empty Config rather than an error.
func Load(data []byte) (*clientcmdapi.Config, error) {
	config := clientcmdapi.NewConfig()
	if len(data) == 0 {
		return config, nil
	}
	defaultGVK := schema.GroupVersionKind{Version: clientcmdlatest.Version, Kind: "Config"}
	obj, _, err := clientcmdlatest.Codec.Decode(data, &defaultGVK, config)
	if err != nil {
		return nil, err
	}
	decoded, ok := obj.(*clientcmdapi.Config)
	if !ok {
		return nil, fmt.Errorf("kubeconfig decoded into %T, expected a Config", obj)
	}
	return decoded, nil
}

// LoadFromFile reads and decodes the kubeconfig file filename and records
// filename as the LocationOfOrigin of every cluster, user and context in it.
// A missing file gives an error for which os.IsNotExist is true; a file that
// does not decode gives an error naming the file.
func LoadFromFile(filename string) (*clientcmdapi.Config, error) {
	config, err := readKubeconfigFile(filename)
	if err != nil {
		if _, isDecode := err.(decodeFileError); isDecode {
			return nil, fmt.Errorf("error loading config file %q: %w", filename, err)
		}
		return nil, err
	}
	return config, nil
}

// decodeFileError marks an error that came from decoding a file's contents,
// as opposed to reading it.
type decodeFileError struct{ err error }

func (e decodeFileError) Error() string { return e.err.Error() }
func (e decodeFileError) Unwrap() error { return e.err }

// readKubeconfigFile is LoadFromFile without the file name in decode errors,
// so that callers that add their own context do not repeat it.
func readKubeconfigFile(filename string) (*clientcmdapi.Config, error) {
	data, err := os.ReadFile(filename)
	if err != nil {
		return nil, err
	}
	config, err := Load(data)
	if err != nil {
		return nil, decodeFileError{err}
	}
	klog.V(6).Infoln("Config loaded from file: ", filename)

	if config.Clusters == nil {
		config.Clusters = map[string]*clientcmdapi.Cluster{}
	}
	if config.AuthInfos == nil {
		config.AuthInfos = map[string]*clientcmdapi.AuthInfo{}
	}
	if config.Contexts == nil {
		config.Contexts = map[string]*clientcmdapi.Context{}
	}
	for name, cluster := range config.Clusters {
		if cluster == nil {
			cluster = clientcmdapi.NewCluster()
			config.Clusters[name] = cluster
		}
		cluster.LocationOfOrigin = filename
	}
	for name, authInfo := range config.AuthInfos {
		if authInfo == nil {
			authInfo = clientcmdapi.NewAuthInfo()
			config.AuthInfos[name] = authInfo
		}
		authInfo.LocationOfOrigin = filename
	}
	for name, context := range config.Contexts {
		if context == nil {
			context = clientcmdapi.NewContext()
			config.Contexts[name] = context
		}
		context.LocationOfOrigin = filename
	}
	return config, nil
}

// Write encodes config as a v1 kubeconfig document in YAML.
func Write(config clientcmdapi.Config) ([]byte, error) {
	return runtime.Encode(clientcmdlatest.Codec, &config)
}

// WriteToFile encodes config and replaces the contents of filename with it.
// Missing parent folders are created (mode 0755). The file has mode 0600
// afterwards, also when it existed with a wider mode (client-go leaves an
// existing file's mode alone).
func WriteToFile(config clientcmdapi.Config, filename string) error {
	content, err := Write(config)
	if err != nil {
		return err
	}
	if err := ensureParentDir(filename); err != nil {
		return err
	}
	return secretfile.Write(filename, content)
}

// ensureParentDir creates the folder that will hold filename if it is
// missing.
func ensureParentDir(filename string) error {
	dir := filepath.Dir(filename)
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		return os.MkdirAll(dir, 0755)
	}
	return nil
}
