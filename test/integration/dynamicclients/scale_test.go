package dynamicclients

import (
	"context"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"

	"github.com/kubeclient/client-go/discovery/cached/memory"
	"github.com/kubeclient/client-go/dynamic"
	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/restmapper"
	"github.com/kubeclient/client-go/scale"
	"github.com/kubeclient/client-go/util/retry"
)

func TestScaleDeployment(t *testing.T) {
	ctx := context.Background()
	ns := controlPlane.Namespace(t)
	cs, err := kubernetes.NewForConfig(controlPlane.AdminConfig())
	if err != nil {
		t.Fatalf("kubernetes.NewForConfig: %v", err)
	}
	labels := map[string]string{"app": "web"}
	_, err = cs.AppsV1().Deployments(ns).Create(ctx, &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](1),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx"}}},
			},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating Deployment: %v", err)
	}

	dc := newDiscovery(t)
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc))
	scales, err := scale.NewForConfig(controlPlane.AdminConfig(), mapper, dynamic.LegacyAPIPathResolverFunc, scale.NewDiscoveryScaleKindResolver(dc))
	if err != nil {
		t.Fatalf("scale.NewForConfig: %v", err)
	}
	deployments := schema.GroupResource{Group: "apps", Resource: "deployments"}

	s, err := scales.Scales(ns).Get(ctx, deployments, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("Scales Get: %v", err)
	}
	if s.Name != "web" || s.Namespace != ns || s.Spec.Replicas != 1 || s.Status.Selector != "app=web" {
		t.Fatalf("Scales Get = %+v", s)
	}

	// kube-controller-manager's deployment controller writes the Deployment's
	// status concurrently, so an update from a read may meet a Conflict:
	// read again and retry, as a client of a live cluster does.
	var updated *autoscalingv1.Scale
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur, err := scales.Scales(ns).Get(ctx, deployments, "web", metav1.GetOptions{})
		if err != nil {
			return err
		}
		cur.Spec.Replicas = 4
		updated, err = scales.Scales(ns).Update(ctx, deployments, cur, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		t.Fatalf("Scales Update: %v", err)
	}
	if updated.Spec.Replicas != 4 {
		t.Fatalf("Scales Update returned %+v", updated)
	}
	dep, err := cs.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("getting Deployment: %v", err)
	}
	if dep.Spec.Replicas == nil || *dep.Spec.Replicas != 4 {
		t.Fatalf("Deployment spec.replicas = %v, want 4", dep.Spec.Replicas)
	}

	// Patch through the scale subresource too.
	patched, err := scales.Scales(ns).Patch(ctx, appsv1.SchemeGroupVersion.WithResource("deployments"), "web",
		"application/merge-patch+json", []byte(`{"spec":{"replicas":2}}`), metav1.PatchOptions{})
	if err != nil {
		t.Fatalf("Scales Patch: %v", err)
	}
	if patched.Spec.Replicas != 2 {
		t.Fatalf("Scales Patch returned %+v", patched)
	}

	// A stale resourceVersion conflicts.
	stale := &autoscalingv1.Scale{ObjectMeta: s.ObjectMeta, Spec: autoscalingv1.ScaleSpec{Replicas: 7}}
	if _, err := scales.Scales(ns).Update(ctx, deployments, stale, metav1.UpdateOptions{}); err == nil {
		t.Fatalf("Scales Update with stale resourceVersion %s: want Conflict", s.ResourceVersion)
	}
}
