package exec

import (
	"errors"
	"fmt"
	"os"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	"github.com/kubeclient/client-go/pkg/apis/clientauthentication"
	"github.com/kubeclient/client-go/pkg/apis/clientauthentication/install"
	"github.com/kubeclient/client-go/rest"
)

// execInfoEnv is the environment variable a client fills with the serialized
// ExecCredential before running the plugin.
const execInfoEnv = "KUBERNETES_EXEC_INFO"

var (
	scheme = runtime.NewScheme()
	codecs = serializer.NewCodecFactory(scheme)
)

func init() {
	install.Install(scheme)
}

// LoadExecCredentialFromEnv calls LoadExecCredential on the contents of the
// KUBERNETES_EXEC_INFO environment variable; it fails at once if the variable
// is unset or empty.
func LoadExecCredentialFromEnv() (runtime.Object, *rest.Config, error) {
	data := os.Getenv(execInfoEnv)
	if data == "" {
		return nil, nil, fmt.Errorf("%s env var is unset or empty", execInfoEnv)
	}
	return LoadExecCredential([]byte(data))
}

// LoadExecCredential decodes data as a client.authentication.k8s.io
// ExecCredential of any served version and returns it (in that version)
// together with an anonymous rest.Config for the cluster in its spec. It is an
// error if the credential carries no cluster information.
func LoadExecCredential(data []byte) (runtime.Object, *rest.Config, error) {
	obj, gvk, err := codecs.UniversalDeserializer().Decode(data, nil, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("decode: %w", err)
	}
	if gvk.Group != clientauthentication.GroupName || gvk.Kind != "ExecCredential" {
		return nil, nil, fmt.Errorf("decode: expected %s ExecCredential, got %s", clientauthentication.GroupName, gvk)
	}

	var internal clientauthentication.ExecCredential
	if err := scheme.Convert(obj, &internal, nil); err != nil {
		return nil, nil, fmt.Errorf("convert %s to internal ExecCredential: %w", gvk.Version, err)
	}
	if internal.Spec.Cluster == nil {
		return nil, nil, errors.New("ExecCredential has no cluster information (spec.cluster is not set: is provideClusterInfo enabled in the kubeconfig?)")
	}
	config, err := rest.ExecClusterToConfig(internal.Spec.Cluster)
	if err != nil {
		return nil, nil, err
	}
	return obj, config, nil
}
