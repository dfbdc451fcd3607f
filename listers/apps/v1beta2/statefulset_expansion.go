package v1beta2

import (
	"fmt"

	api "k8s.io/api/apps/v1beta2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kubeclient/client-go/listers/internal/selection"
)

// StatefulSetListerExpansion adds to StatefulSetLister the lookups controllers use
// to find the StatefulSet objects owning other objects.
type StatefulSetListerExpansion interface {
	GetPodStatefulSets(pod *corev1.Pod) ([]*api.StatefulSet, error)
}

// StatefulSetNamespaceListerExpansion is where hand-written methods of
// StatefulSetNamespaceLister are declared.
type StatefulSetNamespaceListerExpansion interface{}

// GetPodStatefulSets returns the StatefulSets of the pod's namespace whose selector
// selects the pod's labels. It fails when none does, or when the pod has no labels.
func (s *statefulSetLister) GetPodStatefulSets(pod *corev1.Pod) ([]*api.StatefulSet, error) {
	if len(pod.Labels) == 0 {
		return nil, fmt.Errorf("no StatefulSets found for pod %v because it has no labels", pod.Name)
	}
	list, err := s.StatefulSets(pod.Namespace).List(labels.Everything())
	if err != nil {
		return nil, err
	}
	found := selection.Selecting(list, func(obj *api.StatefulSet) *metav1.LabelSelector { return obj.Spec.Selector }, pod.Labels, selection.EmptySelectsNothing)
	if len(found) == 0 {
		return nil, fmt.Errorf("could not find StatefulSet for pod %s in namespace %s with labels: %v", pod.Name, pod.Namespace, pod.Labels)
	}
	return found, nil
}
