package v1

import (
	"fmt"

	api "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kubeclient/client-go/listers/internal/selection"
)

// ReplicaSetListerExpansion adds to ReplicaSetLister the lookups controllers use
// to find the ReplicaSet objects owning other objects.
type ReplicaSetListerExpansion interface {
	GetPodReplicaSets(pod *corev1.Pod) ([]*api.ReplicaSet, error)
}

// ReplicaSetNamespaceListerExpansion is where hand-written methods of
// ReplicaSetNamespaceLister are declared.
type ReplicaSetNamespaceListerExpansion interface{}

// GetPodReplicaSets returns the ReplicaSets of the pod's namespace whose selector
// selects the pod's labels. It fails when none does, or when the pod has no labels.
func (s *replicaSetLister) GetPodReplicaSets(pod *corev1.Pod) ([]*api.ReplicaSet, error) {
	if len(pod.Labels) == 0 {
		return nil, fmt.Errorf("no ReplicaSets found for pod %v because it has no labels", pod.Name)
	}
	list, err := s.ReplicaSets(pod.Namespace).List(labels.Everything())
	if err != nil {
		return nil, err
	}
	found := selection.Selecting(list, func(obj *api.ReplicaSet) *metav1.LabelSelector { return obj.Spec.Selector }, pod.Labels, selection.EmptySelectsNothing)
	if len(found) == 0 {
		return nil, fmt.Errorf("could not find ReplicaSet for pod %s in namespace %s with labels: %v", pod.Name, pod.Namespace, pod.Labels)
	}
	return found, nil
}
