package v1beta2

import (
	"fmt"

	api "k8s.io/api/apps/v1beta2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kubeclient/client-go/listers/internal/selection"
)

// DaemonSetListerExpansion adds to DaemonSetLister the lookups controllers use
// to find the DaemonSet objects owning other objects.
type DaemonSetListerExpansion interface {
	GetPodDaemonSets(pod *corev1.Pod) ([]*api.DaemonSet, error)
	GetHistoryDaemonSets(history *api.ControllerRevision) ([]*api.DaemonSet, error)
}

// DaemonSetNamespaceListerExpansion is where hand-written methods of
// DaemonSetNamespaceLister are declared.
type DaemonSetNamespaceListerExpansion interface{}

// GetPodDaemonSets returns the DaemonSets of the pod's namespace whose selector
// selects the pod's labels. It fails when none does, or when the pod has no labels.
func (s *daemonSetLister) GetPodDaemonSets(pod *corev1.Pod) ([]*api.DaemonSet, error) {
	if len(pod.Labels) == 0 {
		return nil, fmt.Errorf("no daemon sets found for pod %v because it has no labels", pod.Name)
	}
	list, err := s.DaemonSets(pod.Namespace).List(labels.Everything())
	if err != nil {
		return nil, err
	}
	found := selection.Selecting(list, func(obj *api.DaemonSet) *metav1.LabelSelector { return obj.Spec.Selector }, pod.Labels, selection.EmptySelectsNothing)
	if len(found) == 0 {
		return nil, fmt.Errorf("could not find daemon set for pod %s in namespace %s with labels: %v", pod.Name, pod.Namespace, pod.Labels)
	}
	return found, nil
}

// GetHistoryDaemonSets returns the DaemonSets of the ControllerRevision's
// namespace whose selector selects its labels. It fails when none does, or
// when the revision has no labels.
func (s *daemonSetLister) GetHistoryDaemonSets(history *api.ControllerRevision) ([]*api.DaemonSet, error) {
	if len(history.Labels) == 0 {
		return nil, fmt.Errorf("no DaemonSet found for ControllerRevision %s because it has no labels", history.Name)
	}
	list, err := s.DaemonSets(history.Namespace).List(labels.Everything())
	if err != nil {
		return nil, err
	}
	found := selection.Selecting(list, func(obj *api.DaemonSet) *metav1.LabelSelector { return obj.Spec.Selector }, history.Labels, selection.EmptySelectsNothing)
	if len(found) == 0 {
		return nil, fmt.Errorf("could not find DaemonSets for ControllerRevision %s in namespace %s with labels: %v", history.Name, history.Namespace, history.Labels)
	}
	return found, nil
}
