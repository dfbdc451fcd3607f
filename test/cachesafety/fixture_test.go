package cachesafety

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// lastApplied is the annotation the tests' transforms delete in place, as
// controllers that trim their caches do.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// fixtureEpoch is the creation time of every fixture object.
var fixtureEpoch = time.Date(2026, 11, 30, 9, 14, 7, 0, time.UTC)

// group describes the pods of one ReplicaSet: byte-identical labels,
// annotations, owner, managed fields of the controller manager and spec
// template.
type group struct {
	index     int
	namespace string
	app       string
	hash      string
	rsUID     types.UID
	image     string
}

func newGroup(g int) group {
	ns := "shop"
	if g%3 == 2 {
		ns = "billing"
	}
	return group{
		index:     g,
		namespace: ns,
		app:       fmt.Sprintf("svc-%02d", g),
		hash:      fmt.Sprintf("7d4b9c%04x", g*2654435761%65536),
		rsUID:     types.UID(fmt.Sprintf("0f3e2d1c-4b5a-6978-8a9b-%012d", g)),
		image:     fmt.Sprintf("registry.example.com/shop/svc-%02d:1.%d.3", g, g%7),
	}
}

func (g group) labels(rollout int) map[string]string {
	return map[string]string{
		"app.kubernetes.io/name":    g.app,
		"app.kubernetes.io/part-of": "shop",
		"app.kubernetes.io/version": fmt.Sprintf("1.%d.%d", g.index%7, rollout),
		"pod-template-hash":         fmt.Sprintf("%s%d", g.hash, rollout),
		"tier":                      []string{"frontend", "backend", "db"}[g.index%3],
	}
}

func (g group) annotations(rollout int) map[string]string {
	return map[string]string{
		"kubectl.kubernetes.io/restartedAt": fixtureEpoch.Add(time.Duration(rollout) * time.Hour).Format(time.RFC3339),
		"prometheus.io/port":                "9102",
		"prometheus.io/scrape":              "true",
		lastApplied:                         fmt.Sprintf(`{"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{},"labels":{"app.kubernetes.io/name":%q}}}`, g.app),
	}
}

// controllerFields and kubeletFields are the managed fields as the
// controller manager and the kubelet leave them on a pod.
func (g group) controllerFields() []byte {
	return fmt.Appendf(nil, `{"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/restartedAt":{},"f:prometheus.io/port":{},"f:prometheus.io/scrape":{}},"f:generateName":{},"f:labels":{".":{},"f:app.kubernetes.io/name":{},"f:app.kubernetes.io/part-of":{},"f:app.kubernetes.io/version":{},"f:pod-template-hash":{},"f:tier":{}},"f:ownerReferences":{".":{},"k:{\"uid\":\"%s\"}":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:env":{".":{},"k:{\"name\":\"LOG_LEVEL\"}":{".":{},"f:name":{},"f:value":{}}},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{".":{},"k:{\"containerPort\":8080,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}}},"f:resources":{".":{},"f:limits":{".":{},"f:cpu":{},"f:memory":{}},"f:requests":{".":{},"f:cpu":{},"f:memory":{}}}},"k:{\"name\":\"metrics\"}":{".":{},"f:image":{},"f:name":{},"f:resources":{".":{},"f:limits":{".":{},"f:memory":{}},"f:requests":{".":{},"f:cpu":{},"f:memory":{}}}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},"f:schedulerName":{},"f:terminationGracePeriodSeconds":{}}}`, g.rsUID)
}

func kubeletFields(ip string) []byte {
	return fmt.Appendf(nil, `{"f:status":{"f:conditions":{"k:{\"type\":\"ContainersReady\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Initialized\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Ready\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}},"f:containerStatuses":{},"f:hostIP":{},"f:hostIPs":{},"f:phase":{},"f:podIP":{},"f:podIPs":{".":{},"k:{\"ip\":\"%s\"}":{".":{},"f:ip":{}}},"f:startTime":{}}}`, ip)
}

// spec is the pod template of the group at a rollout, on a node.
func (g group) spec(rollout int, node string, token string) corev1.PodSpec {
	grace := int64(30)
	expiry := int64(3607)
	mode := int32(420)
	toleration := int64(300)
	return corev1.PodSpec{
		Volumes: []corev1.Volume{
			{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: g.app + "-config"}, DefaultMode: &mode}}},
			{Name: "kube-api-access-" + token, VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{DefaultMode: &mode, Sources: []corev1.VolumeProjection{
				{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{ExpirationSeconds: &expiry, Path: "token"}},
				{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"}, Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
			}}}},
		},
		Containers: []corev1.Container{
			{
				Name:  "app",
				Image: fmt.Sprintf("%s-r%d", g.image, rollout),
				Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}},
				Env:   []corev1.EnvVar{{Name: "LOG_LEVEL", Value: "info"}},
				Resources: corev1.ResourceRequirements{
					Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("256Mi")},
					Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
				},
				VolumeMounts:             []corev1.VolumeMount{{Name: "config", ReadOnly: true, MountPath: "/etc/app"}, {Name: "kube-api-access-" + token, ReadOnly: true, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount"}},
				TerminationMessagePath:   "/dev/termination-log",
				TerminationMessagePolicy: corev1.TerminationMessageReadFile,
				ImagePullPolicy:          corev1.PullIfNotPresent,
			},
			{
				Name:  "metrics",
				Image: "registry.example.com/shop/metrics-sidecar:0.9.1",
				Resources: corev1.ResourceRequirements{
					Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("64Mi")},
					Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m"), corev1.ResourceMemory: resource.MustParse("32Mi")},
				},
				TerminationMessagePath:   "/dev/termination-log",
				TerminationMessagePolicy: corev1.TerminationMessageReadFile,
				ImagePullPolicy:          corev1.PullIfNotPresent,
			},
		},
		RestartPolicy:                 corev1.RestartPolicyAlways,
		TerminationGracePeriodSeconds: &grace,
		DNSPolicy:                     corev1.DNSClusterFirst,
		ServiceAccountName:            "default",
		NodeName:                      node,
		SchedulerName:                 "default-scheduler",
		Tolerations: []corev1.Toleration{
			{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: &toleration},
			{Key: "node.kubernetes.io/unreachable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: &toleration},
		},
	}
}

// fixturePod is pod i of a fixture with groups of groupSize pods spread
// over nodes nodes, at resource version rv, after restarts restarts of its
// container and in rollout rollout of its group.
func fixturePod(i, groupSize, nodes int, rv int64, restarts int32, rollout int) *corev1.Pod {
	g := newGroup(i / groupSize)
	name := fmt.Sprintf("%s-%s-%05d", g.app, g.hash, i)
	ip := fmt.Sprintf("10.244.%d.%d", i/250, i%250+2)
	node := fmt.Sprintf("node-%03d", i%nodes)
	created := metav1.NewTime(fixtureEpoch)
	started := metav1.NewTime(fixtureEpoch.Add(12 * time.Second))
	isController := true
	ready := corev1.ConditionTrue
	if restarts%2 == 1 {
		ready = corev1.ConditionFalse
	}
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:              name,
			GenerateName:      fmt.Sprintf("%s-%s-", g.app, g.hash),
			Namespace:         g.namespace,
			UID:               types.UID(fmt.Sprintf("8c1f5a2e-3b4d-4e6f-9a0b-%012d", i)),
			ResourceVersion:   fmt.Sprint(rv),
			CreationTimestamp: created,
			Labels:            g.labels(rollout),
			Annotations:       g.annotations(rollout),
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "apps/v1", Kind: "ReplicaSet", Name: g.app + "-" + g.hash, UID: g.rsUID,
				Controller: &isController, BlockOwnerDeletion: &isController,
			}},
			ManagedFields: []metav1.ManagedFieldsEntry{
				{Manager: "kube-controller-manager", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1", Time: &created, FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: g.controllerFields()}},
				{Manager: "kubelet", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1", Time: &started, FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: kubeletFields(ip)}, Subresource: "status"},
			},
		},
		Spec: g.spec(rollout, node, fmt.Sprintf("%05x", i*7919%1048576)),
		Status: corev1.PodStatus{
			Phase: corev1.PodRunning,
			Conditions: []corev1.PodCondition{
				{Type: corev1.PodInitialized, Status: corev1.ConditionTrue, LastTransitionTime: created},
				{Type: corev1.PodReady, Status: ready, LastTransitionTime: started},
				{Type: corev1.ContainersReady, Status: ready, LastTransitionTime: started},
			},
			HostIP:    fmt.Sprintf("172.18.0.%d", i%nodes+2),
			HostIPs:   []corev1.HostIP{{IP: fmt.Sprintf("172.18.0.%d", i%nodes+2)}},
			PodIP:     ip,
			PodIPs:    []corev1.PodIP{{IP: ip}},
			StartTime: &created,
			QOSClass:  corev1.PodQOSBurstable,
			ContainerStatuses: []corev1.ContainerStatus{
				{Name: "app", Ready: ready == corev1.ConditionTrue, RestartCount: restarts, Image: fmt.Sprintf("%s-r%d", g.image, rollout), ImageID: "registry.example.com/shop/app@sha256:0d1c", ContainerID: fmt.Sprintf("containerd://%064x", i*31+int(restarts)),
					State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: started}}},
				{Name: "metrics", Ready: true, Image: "registry.example.com/shop/metrics-sidecar:0.9.1", ImageID: "registry.example.com/shop/metrics-sidecar@sha256:9a8b", ContainerID: fmt.Sprintf("containerd://%064x", i*37),
					State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: started}}},
			},
		},
	}
}
