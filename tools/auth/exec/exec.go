package exec

import (
	"errors"
	"fmt"
	"os"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	"github.com/kubeclient/client-go/pkg/apis/clientauthentication"
	"github.com/kubeclient/client-go/pkg/apis/clientauthentication/install"
	"github.com/kubeclient/client-go/rest"
)

// execInfoEnv is the environment variable a client fills with the serialized
// ExecCredential before running the plugin.
const execInfoEnv = "KUBERNETES_EXEC_INFO"

// execCredentialKind is the group and kind LoadExecCredential accepts, in
// any version.
var execCredentialKind = schema.GroupKind{Group: clientauthentication.GroupName, Kind: "ExecCredential"}

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
// error if the data is not an ExecCredential or carries no cluster
// information.
func LoadExecCredential(data []byte) (runtime.Object, *rest.Config, error) {
	obj, gvk, err := codecs.UniversalDeserializer().Decode(data, nil, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("decode: %w", err)
	}
	if want := execCredentialKind; gvk.GroupKind() != want {
		return nil, nil, fmt.Errorf("invalid group/kind: wanted %s, got %s", want, gvk.GroupKind())
	}

	var internal clientauthentication.ExecCredential
	if err := scheme.Convert(obj, &internal, nil); err != nil {
		return nil, nil, fmt.Errorf("cannot convert to ExecCredential: %w", err)
	}
	if internal.Spec.Cluster == nil {
		return nil, nil, errors.New("ExecCredential does not contain cluster information")
	}
	config, err := rest.ExecClusterToConfig(internal.Spec.Cluster)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot create rest.Config: %w", err)
	}
	return obj, config, nil
}
