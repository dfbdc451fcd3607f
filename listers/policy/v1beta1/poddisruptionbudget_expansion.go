package v1beta1

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	api "k8s.io/api/policy/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kubeclient/client-go/listers/internal/selection"
)

// PodDisruptionBudgetListerExpansion adds to PodDisruptionBudgetLister the lookups controllers use
// to find the PodDisruptionBudget objects owning other objects.
type PodDisruptionBudgetListerExpansion interface {
	GetPodPodDisruptionBudgets(pod *corev1.Pod) ([]*api.PodDisruptionBudget, error)
}

// PodDisruptionBudgetNamespaceListerExpansion is where hand-written methods of
// PodDisruptionBudgetNamespaceLister are declared.
type PodDisruptionBudgetNamespaceListerExpansion interface{}

// GetPodPodDisruptionBudgets returns the PodDisruptionBudgets of the pod's namespace whose selector
// selects the pod's labels. It fails when none does.
func (s *podDisruptionBudgetLister) GetPodPodDisruptionBudgets(pod *corev1.Pod) ([]*api.PodDisruptionBudget, error) {
	list, err := s.PodDisruptionBudgets(pod.Namespace).List(labels.Everything())
	if err != nil {
		return nil, err
	}
	found := selection.Selecting(list, func(obj *api.PodDisruptionBudget) *metav1.LabelSelector { return obj.Spec.Selector }, pod.Labels, selection.EmptySelectsNothing)
	if len(found) == 0 {
		return nil, fmt.Errorf("could not find PodDisruptionBudget for pod %s in namespace %s with labels: %v", pod.Name, pod.Namespace, pod.Labels)
	}
	return found, nil
}
