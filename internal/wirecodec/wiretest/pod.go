// Package wiretest builds objects shaped like those a kube-apiserver sends,
// for the tests and benchmarks of the wire decoding paths.
package wiretest

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Pod returns a Deployment-owned pod of about 6 KB of JSON: two containers
// with resources, probes, environment and mounts, managedFields from two
// field managers, and a running status with conditions.
func Pod(name string) *corev1.Pod {
	created := metav1.NewTime(time.Date(2026, 5, 4, 10, 20, 30, 0, time.UTC))
	started := metav1.NewTime(created.Add(4 * time.Second))
	trueP := true
	return &corev1.Pod{
		TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{
			Name:              name,
			GenerateName:      "web-5d8f7c9b6-",
			Namespace:         "production",
			UID:               types.UID("6f1c2d3e-4b5a-4c7d-9e8f-0a1b2c3d4e5f"),
			ResourceVersion:   "123456789",
			CreationTimestamp: created,
			Labels: map[string]string{
				"app.kubernetes.io/name":      "web",
				"app.kubernetes.io/component": "frontend",
				"pod-template-hash":           "5d8f7c9b6",
				"tier":                        "web",
			},
			Annotations: map[string]string{
				"kubectl.kubernetes.io/restartedAt": "2026-05-04T10:00:00Z",
				"prometheus.io/scrape":              "true",
				"prometheus.io/port":                "9090",
			},
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-5d8f7c9b6",
				UID: types.UID("0a9b8c7d-6e5f-4a3b-2c1d-0e9f8a7b6c5d"), Controller: &trueP, BlockOwnerDeletion: &trueP,
			}},
			ManagedFields: []metav1.ManagedFieldsEntry{{
				Manager: "kube-controller-manager", Operation: metav1.ManagedFieldsOperationUpdate,
				APIVersion: "v1", Time: &created, FieldsType: "FieldsV1",
				FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/restartedAt":{},"f:prometheus.io/port":{},"f:prometheus.io/scrape":{}},"f:generateName":{},"f:labels":{".":{},"f:app.kubernetes.io/component":{},"f:app.kubernetes.io/name":{},"f:pod-template-hash":{},"f:tier":{}},"f:ownerReferences":{".":{},"k:{\"uid\":\"0a9b8c7d-6e5f-4a3b-2c1d-0e9f8a7b6c5d\"}":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:env":{".":{},"k:{\"name\":\"LOG_LEVEL\"}":{".":{},"f:name":{},"f:value":{}}},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{".":{},"k:{\"containerPort\":8080,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}}},"f:resources":{".":{},"f:limits":{".":{},"f:cpu":{},"f:memory":{}},"f:requests":{".":{},"f:cpu":{},"f:memory":{}}}},"k:{\"name\":\"sidecar\"}":{".":{},"f:image":{},"f:name":{}}},"f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},"f:terminationGracePeriodSeconds":{}}}`)},
			}, {
				Manager: "kubelet", Operation: metav1.ManagedFieldsOperationUpdate,
				APIVersion: "v1", Time: &started, FieldsType: "FieldsV1", Subresource: "status",
				FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:status":{"f:conditions":{"k:{\"type\":\"ContainersReady\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Initialized\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Ready\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}},"f:containerStatuses":{},"f:hostIP":{},"f:phase":{},"f:podIP":{},"f:podIPs":{".":{},"k:{\"ip\":\"10.244.1.17\"}":{".":{},"f:ip":{}}},"f:startTime":{}}}`)},
			}},
		},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{
				container("app", "registry.example.com/web/app:v1.42.7", 8080),
				container("sidecar", "registry.example.com/infra/proxy:v3.1.0", 15001),
			},
			RestartPolicy:                 corev1.RestartPolicyAlways,
			TerminationGracePeriodSeconds: ptr(int64(30)),
			DNSPolicy:                     corev1.DNSClusterFirst,
			ServiceAccountName:            "web",
			NodeName:                      "node-17.cluster.local",
			SchedulerName:                 "default-scheduler",
			Tolerations: []corev1.Toleration{
				{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))},
				{Key: "node.kubernetes.io/unreachable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))},
			},
			Volumes: []corev1.Volume{{
				Name: "kube-api-access-x7k2p",
				VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
					DefaultMode: ptr(int32(420)),
					Sources: []corev1.VolumeProjection{
						{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr(int64(3607))}},
						{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"}, Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
					},
				}},
			}},
			PreemptionPolicy: ptr(corev1.PreemptLowerPriority),
			Priority:         ptr(int32(0)),
		},
		Status: corev1.PodStatus{
			Phase: corev1.PodRunning,
			Conditions: []corev1.PodCondition{
				{Type: corev1.PodInitialized, Status: corev1.ConditionTrue, LastTransitionTime: created},
				{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: started},
				{Type: corev1.ContainersReady, Status: corev1.ConditionTrue, LastTransitionTime: started},
				{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: created},
			},
			HostIP:    "192.168.10.17",
			HostIPs:   []corev1.HostIP{{IP: "192.168.10.17"}},
			PodIP:     "10.244.1.17",
			PodIPs:    []corev1.PodIP{{IP: "10.244.1.17"}},
			StartTime: &created,
			QOSClass:  corev1.PodQOSBurstable,
			ContainerStatuses: []corev1.ContainerStatus{
				containerStatus("app", "registry.example.com/web/app:v1.42.7", started),
				containerStatus("sidecar", "registry.example.com/infra/proxy:v3.1.0", started),
			},
		},
	}
}

func container(name, image string, port int32) corev1.Container {
	return corev1.Container{
		Name:  name,
		Image: image,
		Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: port, Protocol: corev1.ProtocolTCP}},
		Env: []corev1.EnvVar{
			{Name: "LOG_LEVEL", Value: "info"},
			{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}},
		},
		Resources: corev1.ResourceRequirements{
			Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("512Mi")},
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
		},
		VolumeMounts: []corev1.VolumeMount{{Name: "kube-api-access-x7k2p", ReadOnly: true, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount"}},
		ReadinessProbe: &corev1.Probe{
			ProbeHandler:  corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromInt32(port), Scheme: corev1.URISchemeHTTP}},
			PeriodSeconds: 10, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3,
		},
		TerminationMessagePath:   "/dev/termination-log",
		TerminationMessagePolicy: corev1.TerminationMessageReadFile,
		ImagePullPolicy:          corev1.PullIfNotPresent,
	}
}

func containerStatus(name, image string, started metav1.Time) corev1.ContainerStatus {
	return corev1.ContainerStatus{
		Name:         name,
		Ready:        true,
		Started:      ptr(true),
		Image:        image,
		ImageID:      image + "@sha256:" + fmt.Sprintf("%064x", len(name)),
		ContainerID:  "containerd://" + fmt.Sprintf("%064x", len(image)),
		State:        corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: started}},
		RestartCount: 0,
	}
}

func ptr[T any](v T) *T { return &v }
