package discovery

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
)

// discoveryScheme knows the unversioned meta types discovery decodes
// (APIVersions, APIGroupList, APIGroup, APIResourceList, Status). It is
// private so that discovery does not depend on, or mutate, the scheme of the
// generated clientset.
var discoveryScheme = runtime.NewScheme()

// discoveryCodecs decodes the types of discoveryScheme.
var discoveryCodecs = serializer.NewCodecFactory(discoveryScheme)

func init() {
	metav1.AddToGroupVersion(discoveryScheme, schema.GroupVersion{Version: "v1"})
}
