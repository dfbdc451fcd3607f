package latest

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/versioning"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	"github.com/kubeclient/client-go/tools/clientcmd/api"
	v1 "github.com/kubeclient/client-go/tools/clientcmd/api/v1"
)

// Version is the kubeconfig version Codec writes.
const Version = "v1"

// OldestVersion is the oldest kubeconfig version this package reads.
const OldestVersion = "v1"

// ExternalVersion is the group version Codec writes.
var ExternalVersion = schema.GroupVersion{Group: "", Version: "v1"}

// Versions lists the readable kubeconfig versions, oldest first.
var Versions = []string{"v1"}

var (
	// Codec decodes kubeconfig bytes (YAML or JSON) into *api.Config and
	// encodes *api.Config as v1 YAML.
	Codec runtime.Codec
	// Scheme knows the internal and v1 kubeconfig types and the
	// conversions and defaults between them.
	Scheme *runtime.Scheme
)

func init() {
	Scheme = runtime.NewScheme()
	utilruntime.Must(api.AddToScheme(Scheme))
	utilruntime.Must(v1.AddToScheme(Scheme))

	// The YAML serializer also reads JSON, since JSON is a subset of YAML.
	yamlSerializer := json.NewSerializerWithOptions(json.DefaultMetaFactory, Scheme, Scheme, json.SerializerOptions{Yaml: true})
	Codec = versioning.NewDefaultingCodecForScheme(
		Scheme,
		yamlSerializer,
		yamlSerializer,
		schema.GroupVersion{Version: Version},
		runtime.InternalGroupVersioner,
	)
}
