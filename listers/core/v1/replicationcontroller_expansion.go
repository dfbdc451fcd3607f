package v1

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kubeclient/client-go/listers/internal/selection"
)

// ReplicationControllerListerExpansion adds to ReplicationControllerLister the lookups controllers use
// to find the ReplicationController objects owning other objects.
type ReplicationControllerListerExpansion interface {
	GetPodControllers(pod *corev1.Pod) ([]*corev1.ReplicationController, error)
}

// ReplicationControllerNamespaceListerExpansion is where hand-written methods of
// ReplicationControllerNamespaceLister are declared.
type ReplicationControllerNamespaceListerExpansion interface{}

// GetPodControllers returns the ReplicationControllers of the pod's
// namespace whose selector selects the pod's labels. It fails when none
// does, or when the pod has no labels.
func (s *replicationControllerLister) GetPodControllers(pod *corev1.Pod) ([]*corev1.ReplicationController, error) {
	if len(pod.Labels) == 0 {
		return nil, fmt.Errorf("no controllers found for pod %v because it has no labels", pod.Name)
	}
	list, err := s.ReplicationControllers(pod.Namespace).List(labels.Everything())
	if err != nil {
		return nil, err
	}
	found := selection.SelectingMap(list, func(obj *corev1.ReplicationController) map[string]string { return obj.Spec.Selector }, pod.Labels)
	if len(found) == 0 {
		return nil, fmt.Errorf("could not find controller for pod %s in namespace %s with labels: %v", pod.Name, pod.Namespace, pod.Labels)
	}
	return found, nil
}
