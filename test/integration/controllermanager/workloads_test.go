package controllermanager

import (
	"context"
	"fmt"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	authnv1 "k8s.io/api/authentication/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeclient/client-go/kubernetes"
)

// podTemplate is a Pod template no kubelet will ever run (there is none).
func podTemplate(labels map[string]string, restart corev1.RestartPolicy) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: labels},
		Spec: corev1.PodSpec{
			Containers:    []corev1.Container{{Name: "app", Image: "registry.invalid/app:1"}},
			RestartPolicy: restart,
		},
	}
}

// ownedPods lists the Pods in ns whose controller is the object with uid.
func ownedPods(ctx context.Context, cs kubernetes.Interface, ns string, uid types.UID) ([]corev1.Pod, error) {
	list, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	var pods []corev1.Pod
	for _, p := range list.Items {
		if ref := metav1.GetControllerOf(&p); ref != nil && ref.UID == uid {
			pods = append(pods, p)
		}
	}
	return pods, nil
}

// TestDeploymentRollsOutReplicaSet creates a Deployment: the deployment
// controller creates a ReplicaSet it controls and the ReplicaSet controller
// creates the Pods. No scheduler or kubelet runs, so the Pods stay Pending
// with no node and the Deployment reports no available replica.
func TestDeploymentRollsOutReplicaSet(t *testing.T) {
	cs := newClientset(t)
	ns := env.Namespace(t)
	ctx := context.Background()
	labels := map[string]string{"app": "web"}
	replicas := int32(3)
	dep, err := cs.AppsV1().Deployments(ns).Create(ctx, &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: podTemplate(labels, corev1.RestartPolicyAlways),
		},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}

	var rs appsv1.ReplicaSet
	eventually(t, "a ReplicaSet controlled by the Deployment", func(ctx context.Context) (bool, error) {
		list, err := cs.AppsV1().ReplicaSets(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		for _, item := range list.Items {
			if ref := metav1.GetControllerOf(&item); ref != nil && ref.UID == dep.UID {
				rs = item
				return true, nil
			}
		}
		return false, fmt.Errorf("%d ReplicaSets, none controlled by the Deployment", len(list.Items))
	})
	if rs.Spec.Replicas == nil || *rs.Spec.Replicas != replicas {
		t.Errorf("ReplicaSet replicas = %v, want %d", rs.Spec.Replicas, replicas)
	}

	eventually(t, "the ReplicaSet's Pods", func(ctx context.Context) (bool, error) {
		pods, err := ownedPods(ctx, cs, ns, rs.UID)
		if err != nil || len(pods) != int(replicas) {
			return false, err
		}
		for _, p := range pods {
			if p.Status.Phase != corev1.PodPending || p.Spec.NodeName != "" {
				return false, fmt.Errorf("pod %s: phase %q node %q, want Pending on no node", p.Name, p.Status.Phase, p.Spec.NodeName)
			}
		}
		return true, nil
	})

	eventually(t, "the Deployment's status", func(ctx context.Context) (bool, error) {
		got, err := cs.AppsV1().Deployments(ns).Get(ctx, dep.Name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		s := got.Status
		if s.ObservedGeneration != got.Generation || s.Replicas != replicas || s.AvailableReplicas != 0 {
			return false, fmt.Errorf("status %+v", s)
		}
		return true, nil
	})
}

// TestJobCreatesPod creates a Job: the job controller creates its Pod,
// which stays Pending, and counts it as active.
func TestJobCreatesPod(t *testing.T) {
	cs := newClientset(t)
	ns := env.Namespace(t)
	ctx := context.Background()
	job, err := cs.BatchV1().Jobs(ns).Create(ctx, &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: "once"},
		Spec:       batchv1.JobSpec{Template: podTemplate(nil, corev1.RestartPolicyNever)},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "the Job's Pod and active count", func(ctx context.Context) (bool, error) {
		pods, err := ownedPods(ctx, cs, ns, job.UID)
		if err != nil || len(pods) != 1 {
			return false, err
		}
		got, err := cs.BatchV1().Jobs(ns).Get(ctx, job.Name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		return got.Status.Active == 1, nil
	})
}

// TestServiceAccountTokenSecret creates a service account token Secret: the
// token controller fills in a token signed with kube-apiserver's key, which
// kube-apiserver then accepts.
func TestServiceAccountTokenSecret(t *testing.T) {
	cs := newClientset(t)
	ns := env.Namespace(t)
	ctx := context.Background()
	eventually(t, `the "default" ServiceAccount`, func(ctx context.Context) (bool, error) {
		_, err := cs.CoreV1().ServiceAccounts(ns).Get(ctx, "default", metav1.GetOptions{})
		return err == nil, err
	})
	secret, err := cs.CoreV1().Secrets(ns).Create(ctx, &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{
			Name:        "default-token",
			Annotations: map[string]string{corev1.ServiceAccountNameKey: "default"},
		},
		Type: corev1.SecretTypeServiceAccountToken,
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var token []byte
	eventually(t, "the token in the Secret", func(ctx context.Context) (bool, error) {
		got, err := cs.CoreV1().Secrets(ns).Get(ctx, secret.Name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		token = got.Data[corev1.ServiceAccountTokenKey]
		return len(token) > 0 && len(got.Data[corev1.ServiceAccountRootCAKey]) > 0, nil
	})
	saClient, err := kubernetes.NewForConfig(env.TokenConfig(string(token)))
	if err != nil {
		t.Fatal(err)
	}
	review, err := saClient.AuthenticationV1().SelfSubjectReviews().Create(ctx,
		&authnv1.SelfSubjectReview{}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("whoami with the controller's token: %v", err)
	}
	if want := "system:serviceaccount:" + ns + ":default"; review.Status.UserInfo.Username != want {
		t.Errorf("token authenticates %q, want %q", review.Status.UserInfo.Username, want)
	}
}
