package v1

import (
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Widget is namespaced, has a status and a scale subresource.
//
// +genclient
// +genclient:method=GetScale,verb=get,subresource=scale,result=k8s.io/api/autoscaling/v1.Scale
// +genclient:method=ApplyScale,verb=apply,subresource=scale,input=k8s.io/api/autoscaling/v1.Scale,result=k8s.io/api/autoscaling/v1.Scale
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec"`
	Status WidgetStatus `json:"status,omitempty"`
}

// WidgetSpec uses every kind of field the apply generator handles.
type WidgetSpec struct {
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
	Mode     Mode   `json:"mode"`
	// +listType=map
	// +listMapKey=name
	// +listMapKey=protocol
	Ports []Port `json:"ports,omitempty"`
	// +patchStrategy=merge
	// +patchMergeKey=name
	Parts []Part `json:"parts,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	// +listType=set
	Tags []string `json:"tags,omitempty"`
	// +mapType=atomic
	Labels  map[string]string  `json:"labels,omitempty"`
	Data    []byte             `json:"data,omitempty"`
	Target  intstr.IntOrString `json:"target"`
	Ref     *Reference         `json:"ref,omitempty"`
	Parts2  map[string]Part    `json:"partsByName,omitempty"`
	Hidden  string             `json:"-"`
	Inline  `json:",inline"`
	Nothing Empty `json:"nothing,omitempty"`
}

// Inline is embedded in WidgetSpec.
type Inline struct {
	Color string `json:"color,omitempty"`
}

// Empty has no fields and so no apply configuration.
type Empty struct{}

// Mode is a string enum.
type Mode string

// Port is a list-map element keyed by name and protocol.
type Port struct {
	Name     string `json:"name"`
	Protocol string `json:"protocol"`
	Number   int32  `json:"number"`
}

// Part is a merge-patched element.
type Part struct {
	Name string `json:"name"`
}

// Reference is an atomic struct.
//
// +structType=atomic
type Reference struct {
	Name string `json:"name"`
}

// WidgetStatus is the observed state of a Widget.
type WidgetStatus struct {
	Ready bool `json:"ready"`
	// +listType=atomic
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// WidgetList is a list of Widgets.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}

// Gadget is cluster scoped and has a status the client must not write.
//
// +genclient
// +genclient:nonNamespaced
// +genclient:noStatus
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            WidgetStatus `json:"status,omitempty"`
}

// GadgetList is a list of Gadgets.
type GadgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gadget `json:"items"`
}

// Review can only be created.
//
// +genclient
// +genclient:nonNamespaced
// +genclient:onlyVerbs=create
type Review struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              Part `json:"spec"`
}

// Policy skips two verbs.
//
// +genclient
// +genclient:skipVerbs=deleteCollection,watch
type Policy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              Part `json:"spec"`
}

// PolicyList is a list of Policies.
type PolicyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Policy `json:"items"`
}

var _ = autoscalingv1.Scale{}
