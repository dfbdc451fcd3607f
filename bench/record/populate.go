package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kubeclient/client-go/dynamic"
	"github.com/kubeclient/client-go/kubernetes"
)

// namespace holds everything the recorder creates.
const namespace = "shop"

var widgetGVR = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}

// populate creates the namespace, two Deployments (and waits for their
// Pods), fills each Pod's status as a kubelet would, and creates
// ConfigMaps, a CRD and two of its objects.
func (r *recorder) populate(ctx context.Context) error {
	cs, err := kubernetes.NewForConfig(r.env.AdminConfig())
	if err != nil {
		return err
	}
	r.cs = cs
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("namespace: %w", err)
	}
	for _, d := range []*appsv1.Deployment{webDeployment(), workerDeployment()} {
		if _, err := cs.AppsV1().Deployments(namespace).Create(ctx, d, metav1.CreateOptions{FieldManager: "kubectl-client-side-apply"}); err != nil {
			return fmt.Errorf("deployment %s: %w", d.Name, err)
		}
	}
	var pods *corev1.PodList
	err = wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 2*time.Minute, true, func(ctx context.Context) (bool, error) {
		pods, err = cs.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{})
		return err == nil && len(pods.Items) == 5, nil
	})
	if err != nil {
		return fmt.Errorf("waiting for the Deployments' 5 Pods: %w", err)
	}
	for i := range pods.Items {
		if err := r.runPod(ctx, &pods.Items[i], i); err != nil {
			return err
		}
	}
	for _, cm := range configMaps() {
		if _, err := cs.CoreV1().ConfigMaps(namespace).Create(ctx, cm, metav1.CreateOptions{FieldManager: "helm"}); err != nil {
			return fmt.Errorf("configmap %s: %w", cm.Name, err)
		}
	}
	if _, err := r.env.InstallCRDs(ctx, widgetCRD()); err != nil {
		return err
	}
	dyn, err := dynamic.NewForConfig(r.env.AdminConfig())
	if err != nil {
		return err
	}
	for i, size := range []int64{3, 5} {
		w := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "example.com/v1", "kind": "Widget",
			"metadata": map[string]any{
				"name":   fmt.Sprintf("widget-%d", i),
				"labels": map[string]any{"app.kubernetes.io/name": "widget", "tier": "backend"},
			},
			"spec": map[string]any{
				"size": size, "color": "blue", "image": "registry.example.com/widget:1.4.2",
				"ports": []any{map[string]any{"name": "http", "port": int64(8080)}, map[string]any{"name": "metrics", "port": int64(9090)}},
			},
		}}
		created, err := dyn.Resource(widgetGVR).Namespace(namespace).Create(ctx, w, metav1.CreateOptions{FieldManager: "widget-cli"})
		if err != nil {
			return fmt.Errorf("widget: %w", err)
		}
		status := map[string]any{"status": map[string]any{
			"phase": "Ready", "observedGeneration": int64(1), "readyReplicas": size,
			"conditions": []any{map[string]any{"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable",
				"lastTransitionTime": time.Now().UTC().Format(time.RFC3339), "message": "Widget has minimum availability."}},
		}}
		body, _ := json.Marshal(status)
		if _, err := dyn.Resource(widgetGVR).Namespace(namespace).Patch(ctx, created.GetName(), types.MergePatchType, body,
			metav1.PatchOptions{FieldManager: "widget-controller"}, "status"); err != nil {
			return fmt.Errorf("widget status: %w", err)
		}
	}
	return nil
}

// runPod does what the scheduler and a kubelet would: binds the Pod to a
// node, then patches its status under the field manager "kubelet".
func (r *recorder) runPod(ctx context.Context, pod *corev1.Pod, i int) error {
	node := fmt.Sprintf("worker-node-%d", i%2+1)
	err := r.cs.CoreV1().Pods(namespace).Bind(ctx, &corev1.Binding{
		ObjectMeta: metav1.ObjectMeta{Name: pod.Name, UID: pod.UID},
		Target:     corev1.ObjectReference{Kind: "Node", Name: node},
	}, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("binding %s: %w", pod.Name, err)
	}
	start := metav1.NewTime(time.Now().UTC().Add(-3 * time.Minute).Truncate(time.Second))
	running := metav1.NewTime(start.Add(4 * time.Second))
	podIP := fmt.Sprintf("10.244.%d.%d", i%2+1, 10+i)
	hostIP := fmt.Sprintf("172.18.0.%d", i%2+2)
	var statuses []corev1.ContainerStatus
	for j, c := range pod.Spec.Containers {
		statuses = append(statuses, corev1.ContainerStatus{
			Name:         c.Name,
			Image:        c.Image,
			ImageID:      "docker.io/library/" + c.Image + "@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31",
			ContainerID:  fmt.Sprintf("containerd://%064x", 0xabcdef0123+i*7+j),
			Ready:        true,
			Started:      ptr(true),
			RestartCount: 0,
			State:        corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: running}},
			VolumeMounts: volumeMountStatuses(c.VolumeMounts),
		})
	}
	cond := func(t corev1.PodConditionType, at metav1.Time) corev1.PodCondition {
		return corev1.PodCondition{Type: t, Status: corev1.ConditionTrue, LastTransitionTime: at}
	}
	status := corev1.Pod{Status: corev1.PodStatus{
		Phase: corev1.PodRunning,
		Conditions: []corev1.PodCondition{
			cond("PodReadyToStartContainers", running), cond(corev1.PodInitialized, start),
			cond(corev1.PodReady, running), cond(corev1.ContainersReady, running), cond(corev1.PodScheduled, start),
		},
		HostIP:            hostIP,
		HostIPs:           []corev1.HostIP{{IP: hostIP}},
		PodIP:             podIP,
		PodIPs:            []corev1.PodIP{{IP: podIP}},
		StartTime:         &start,
		ContainerStatuses: statuses,
	}}
	body, err := json.Marshal(status)
	if err != nil {
		return err
	}
	_, err = r.cs.CoreV1().Pods(namespace).Patch(ctx, pod.Name, types.StrategicMergePatchType, body,
		metav1.PatchOptions{FieldManager: "kubelet"}, "status")
	if err != nil {
		return fmt.Errorf("status of %s: %w", pod.Name, err)
	}
	return nil
}

func volumeMountStatuses(mounts []corev1.VolumeMount) []corev1.VolumeMountStatus {
	var out []corev1.VolumeMountStatus
	for _, m := range mounts {
		out = append(out, corev1.VolumeMountStatus{Name: m.Name, MountPath: m.MountPath, ReadOnly: m.ReadOnly})
	}
	return out
}

func ptr[T any](v T) *T { return &v }

func resources(cpuReq, memReq, cpuLim, memLim string) corev1.ResourceRequirements {
	return corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpuReq), corev1.ResourceMemory: resource.MustParse(memReq)},
		Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpuLim), corev1.ResourceMemory: resource.MustParse(memLim)},
	}
}

// webDeployment is a typical web service: an application container with
// probes, environment, ports and resources, and a log-shipping sidecar.
func webDeployment() *appsv1.Deployment {
	labels := map[string]string{"app.kubernetes.io/name": "storefront", "app.kubernetes.io/component": "web", "app.kubernetes.io/part-of": "shop"}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "storefront", Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr(int32(3)),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{
					Labels:      map[string]string{"app.kubernetes.io/name": "storefront", "app.kubernetes.io/component": "web", "app.kubernetes.io/part-of": "shop", "app.kubernetes.io/version": "2.14.1"},
					Annotations: map[string]string{"prometheus.io/scrape": "true", "prometheus.io/port": "9102", "kubectl.kubernetes.io/default-container": "storefront"},
				},
				Spec: corev1.PodSpec{
					Containers: []corev1.Container{{
						Name:  "storefront",
						Image: "registry.example.com/shop/storefront:2.14.1",
						Args:  []string{"--listen=:8080", "--metrics=:9102", "--log-format=json"},
						Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}, {Name: "metrics", ContainerPort: 9102}},
						Env: []corev1.EnvVar{
							{Name: "DATABASE_URL", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "storefront-db"}, Key: "url"}}},
							{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
							{Name: "CACHE_TTL", Value: "300s"},
						},
						Resources: resources("250m", "256Mi", "1", "512Mi"),
						LivenessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("http")}},
							InitialDelaySeconds: 10, PeriodSeconds: 10},
						ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/readyz", Port: intstr.FromString("http")}},
							PeriodSeconds: 5},
						VolumeMounts: []corev1.VolumeMount{{Name: "config", MountPath: "/etc/storefront", ReadOnly: true}, {Name: "tmp", MountPath: "/tmp"}},
						SecurityContext: &corev1.SecurityContext{RunAsNonRoot: ptr(true), ReadOnlyRootFilesystem: ptr(true),
							AllowPrivilegeEscalation: ptr(false), Capabilities: &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}}},
					}, {
						Name:         "log-shipper",
						Image:        "registry.example.com/infra/fluent-bit:3.1.4",
						Resources:    resources("50m", "64Mi", "200m", "128Mi"),
						VolumeMounts: []corev1.VolumeMount{{Name: "tmp", MountPath: "/var/log/app", ReadOnly: true}},
					}},
					Volumes: []corev1.Volume{
						{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "storefront-config"}}}},
						{Name: "tmp", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
					},
					TerminationGracePeriodSeconds: ptr(int64(30)),
					Tolerations: []corev1.Toleration{
						{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))},
						{Key: "node.kubernetes.io/unreachable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))},
					},
				},
			},
		},
	}
}

// workerDeployment is a smaller single-container worker.
func workerDeployment() *appsv1.Deployment {
	labels := map[string]string{"app.kubernetes.io/name": "order-worker", "app.kubernetes.io/part-of": "shop"}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "order-worker", Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr(int32(2)),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					Containers: []corev1.Container{{
						Name:      "worker",
						Image:     "registry.example.com/shop/order-worker:1.9.0",
						Command:   []string{"/bin/order-worker"},
						Args:      []string{"--queue=orders", "--concurrency=8"},
						Env:       []corev1.EnvVar{{Name: "QUEUE_URL", Value: "amqp://rabbitmq.shop.svc:5672"}},
						Resources: resources("100m", "128Mi", "500m", "256Mi"),
					}},
				},
			},
		},
	}
}

func configMaps() []*corev1.ConfigMap {
	return []*corev1.ConfigMap{
		{
			ObjectMeta: metav1.ObjectMeta{Name: "storefront-config", Labels: map[string]string{"app.kubernetes.io/name": "storefront", "app.kubernetes.io/managed-by": "Helm"},
				Annotations: map[string]string{"meta.helm.sh/release-name": "storefront", "meta.helm.sh/release-namespace": namespace}},
			Data: map[string]string{
				"app.yaml":  "server:\n  listen: \":8080\"\n  readTimeout: 5s\n  writeTimeout: 10s\ncache:\n  ttl: 300s\n  size: 10000\nfeatures:\n  recommendations: true\n  newCheckout: false\n",
				"LOG_LEVEL": "info",
				"REGION":    "eu-west-1",
			},
		},
		{
			ObjectMeta: metav1.ObjectMeta{Name: "order-worker-env", Labels: map[string]string{"app.kubernetes.io/name": "order-worker"}},
			Data:       map[string]string{"QUEUE": "orders", "CONCURRENCY": "8", "RETRY_BACKOFF": "2s"},
		},
		{
			ObjectMeta: metav1.ObjectMeta{Name: "feature-flags"},
			Data:       map[string]string{"flags.json": `{"recommendations":{"enabled":true,"rollout":25},"newCheckout":{"enabled":false}}`},
		},
	}
}

// widgetCRD is a small namespaced CRD with a structural schema and a
// status subresource.
func widgetCRD() map[string]any {
	str := map[string]any{"type": "string"}
	integer := map[string]any{"type": "integer"}
	return map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "widgets.example.com"},
		"spec": map[string]any{
			"group": "example.com",
			"names": map[string]any{"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
			"scope": "Namespaced",
			"versions": []any{map[string]any{
				"name": "v1", "served": true, "storage": true,
				"subresources": map[string]any{"status": map[string]any{}},
				"schema": map[string]any{"openAPIV3Schema": map[string]any{
					"type": "object",
					"properties": map[string]any{
						"spec": map[string]any{"type": "object", "properties": map[string]any{
							"size": integer, "color": str, "image": str,
							"ports": map[string]any{"type": "array", "items": map[string]any{"type": "object",
								"properties": map[string]any{"name": str, "port": integer}}},
						}},
						"status": map[string]any{"type": "object", "properties": map[string]any{
							"phase": str, "observedGeneration": integer, "readyReplicas": integer,
							"conditions": map[string]any{"type": "array", "items": map[string]any{"type": "object",
								"properties": map[string]any{"type": str, "status": str, "reason": str, "message": str,
									"lastTransitionTime": map[string]any{"type": "string", "format": "date-time"}}}},
						}},
					},
				}},
			}},
		},
	}
}
