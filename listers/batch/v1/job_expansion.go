package v1

import (
	"fmt"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kubeclient/client-go/listers/internal/selection"
)

// JobListerExpansion adds to JobLister the lookups controllers use
// to find the Job objects owning other objects.
type JobListerExpansion interface {
	// GetPodJobs returns the Jobs whose selector selects the pod; only the
	// one named by the pod's controller reference actually manages it.
	GetPodJobs(pod *corev1.Pod) (jobs []batchv1.Job, err error)
}

// JobNamespaceListerExpansion is where hand-written methods of
// JobNamespaceLister are declared.
type JobNamespaceListerExpansion interface{}

// GetPodJobs returns copies of the Jobs of the pod's namespace whose
// selector selects the pod's labels. It fails when none does, or when the
// pod has no labels.
func (l *jobLister) GetPodJobs(pod *corev1.Pod) (jobs []batchv1.Job, err error) {
	if len(pod.Labels) == 0 {
		return nil, fmt.Errorf("no jobs found for pod %v because it has no labels", pod.Name)
	}
	list, err := l.Jobs(pod.Namespace).List(labels.Everything())
	if err != nil {
		return nil, err
	}
	for _, job := range selection.Selecting(list, func(obj *batchv1.Job) *metav1.LabelSelector { return obj.Spec.Selector }, pod.Labels, selection.EmptySelectsNothing) {
		jobs = append(jobs, *job)
	}
	if len(jobs) == 0 {
		return nil, fmt.Errorf("could not find jobs for pod %s in namespace %s with labels: %v", pod.Name, pod.Namespace, pod.Labels)
	}
	return jobs, nil
}
