package install

import (
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	"github.com/kubeclient/client-go/pkg/apis/clientauthentication"
	v1 "github.com/kubeclient/client-go/pkg/apis/clientauthentication/v1"
	"github.com/kubeclient/client-go/pkg/apis/clientauthentication/v1beta1"
)

// Install adds the internal, v1 and v1beta1 ExecCredential types and their
// conversions to scheme. It panics if registration fails, which only
// happens on programming errors.
func Install(scheme *runtime.Scheme) {
	utilruntime.Must(clientauthentication.AddToScheme(scheme))
	utilruntime.Must(v1.AddToScheme(scheme))
	utilruntime.Must(v1beta1.AddToScheme(scheme))
}
