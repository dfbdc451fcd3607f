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

// Scheme knows the internal and v1 kubeconfig types and the conversions
// and defaults between them.
var Scheme = newScheme()

// Codec decodes kubeconfig bytes (YAML or JSON) into *api.Config and encodes
// *api.Config as v1 YAML.
var Codec runtime.Codec = yamlCodec(Scheme)

func newScheme() *runtime.Scheme {
	scheme := runtime.NewScheme()
	for _, addToScheme := range []func(*runtime.Scheme) error{api.AddToScheme, v1.AddToScheme} {
		utilruntime.Must(addToScheme(scheme))
	}
	return scheme
}

// yamlCodec writes v1 YAML and reads YAML or JSON (a subset of YAML) of any
// version scheme knows, decoding to the internal version with defaults
// applied.
func yamlCodec(scheme *runtime.Scheme) runtime.Codec {
	serializer := json.NewSerializerWithOptions(json.DefaultMetaFactory, scheme, scheme, json.SerializerOptions{Yaml: true})
	return versioning.NewDefaultingCodecForScheme(scheme, serializer, serializer, ExternalVersion, runtime.InternalGroupVersioner)
}
