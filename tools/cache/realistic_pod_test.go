package cache

import (
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	v1 "k8s.io/api/core/v1"
)

// realisticPodJSON is a pod of a Deployment as kube-apiserver serves it:
// owned by a ReplicaSet, labels and annotations, two containers with
// resources, managedFields of kube-controller-manager and the kubelet, and
// a running status. %[1]s is the pod's suffix, %[2]d its resource version,
// %[3]d a per-pod number for its UID and IP, %[4]d its node's number and
// %[5]s the suffix of its service account token volume.
const realisticPodJSON = `{
  "kind": "Pod",
  "apiVersion": "v1",
  "metadata": {
    "name": "web-7d4b9c8f6d-%[1]s",
    "generateName": "web-7d4b9c8f6d-",
    "namespace": "shop",
    "uid": "8c1f5a2e-3b4d-4e6f-9a0b-%012[3]d",
    "resourceVersion": "%[2]d",
    "creationTimestamp": "2026-11-30T09:14:07Z",
    "labels": {
      "app.kubernetes.io/name": "web",
      "app.kubernetes.io/part-of": "shop",
      "app.kubernetes.io/version": "1.27.3",
      "pod-template-hash": "7d4b9c8f6d",
      "tier": "frontend"
    },
    "annotations": {
      "kubectl.kubernetes.io/restartedAt": "2026-11-30T09:13:55Z",
      "prometheus.io/port": "9102",
      "prometheus.io/scrape": "true"
    },
    "ownerReferences": [
      {
        "apiVersion": "apps/v1",
        "kind": "ReplicaSet",
        "name": "web-7d4b9c8f6d",
        "uid": "0f3e2d1c-4b5a-6978-8a9b-0c1d2e3f4a5b",
        "controller": true,
        "blockOwnerDeletion": true
      }
    ],
    "managedFields": [
      {
        "manager": "kube-controller-manager",
        "operation": "Update",
        "apiVersion": "v1",
        "time": "2026-11-30T09:14:07Z",
        "fieldsType": "FieldsV1",
        "fieldsV1": {"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/restartedAt":{},"f:prometheus.io/port":{},"f:prometheus.io/scrape":{}},"f:generateName":{},"f:labels":{".":{},"f:app.kubernetes.io/name":{},"f:app.kubernetes.io/part-of":{},"f:app.kubernetes.io/version":{},"f:pod-template-hash":{},"f:tier":{}},"f:ownerReferences":{".":{},"k:{\"uid\":\"0f3e2d1c-4b5a-6978-8a9b-0c1d2e3f4a5b\"}":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:env":{".":{},"k:{\"name\":\"LOG_LEVEL\"}":{".":{},"f:name":{},"f:value":{}},"k:{\"name\":\"POD_IP\"}":{".":{},"f:name":{},"f:valueFrom":{".":{},"f:fieldRef":{}}}},"f:image":{},"f:imagePullPolicy":{},"f:livenessProbe":{".":{},"f:failureThreshold":{},"f:httpGet":{".":{},"f:path":{},"f:port":{},"f:scheme":{}},"f:initialDelaySeconds":{},"f:periodSeconds":{},"f:successThreshold":{},"f:timeoutSeconds":{}},"f:name":{},"f:ports":{".":{},"k:{\"containerPort\":8080,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}}},"f:readinessProbe":{".":{},"f:failureThreshold":{},"f:httpGet":{".":{},"f:path":{},"f:port":{},"f:scheme":{}},"f:periodSeconds":{},"f:successThreshold":{},"f:timeoutSeconds":{}},"f:resources":{".":{},"f:limits":{".":{},"f:cpu":{},"f:memory":{}},"f:requests":{".":{},"f:cpu":{},"f:memory":{}}},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{},"f:volumeMounts":{".":{},"k:{\"mountPath\":\"/etc/web\"}":{".":{},"f:mountPath":{},"f:name":{},"f:readOnly":{}}}},"k:{\"name\":\"metrics\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{".":{},"k:{\"containerPort\":9102,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}}},"f:resources":{".":{},"f:limits":{".":{},"f:cpu":{},"f:memory":{}},"f:requests":{".":{},"f:cpu":{},"f:memory":{}}},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{},"f:volumes":{".":{},"k:{\"name\":\"config\"}":{".":{},"f:configMap":{".":{},"f:defaultMode":{},"f:name":{}},"f:name":{}}}}}
      },
      {
        "manager": "kubelet",
        "operation": "Update",
        "apiVersion": "v1",
        "time": "2026-11-30T09:14:19Z",
        "fieldsType": "FieldsV1",
        "fieldsV1": {"f:status":{"f:conditions":{"k:{\"type\":\"ContainersReady\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Initialized\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"PodReadyToStartContainers\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"PodScheduled\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Ready\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}},"f:containerStatuses":{},"f:hostIP":{},"f:hostIPs":{},"f:phase":{},"f:podIP":{},"f:podIPs":{".":{},"k:{\"ip\":\"10.244.1.%[3]d\"}":{".":{},"f:ip":{}}},"f:startTime":{}}},
        "subresource": "status"
      }
    ]
  },
  "spec": {
    "volumes": [
      {"name": "config", "configMap": {"name": "web-config", "defaultMode": 420}},
      {"name": "kube-api-access-%[5]s", "projected": {"sources": [
        {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
        {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
        {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}}
      ], "defaultMode": 420}}
    ],
    "containers": [
      {
        "name": "app",
        "image": "registry.example.com/shop/web:1.27.3",
        "ports": [{"name": "http", "containerPort": 8080, "protocol": "TCP"}],
        "env": [
          {"name": "LOG_LEVEL", "value": "info"},
          {"name": "POD_IP", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "status.podIP"}}}
        ],
        "resources": {"limits": {"cpu": "1", "memory": "512Mi"}, "requests": {"cpu": "250m", "memory": "256Mi"}},
        "volumeMounts": [
          {"name": "config", "readOnly": true, "mountPath": "/etc/web"},
          {"name": "kube-api-access-%[5]s", "readOnly": true, "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount"}
        ],
        "livenessProbe": {"httpGet": {"path": "/healthz", "port": 8080, "scheme": "HTTP"}, "initialDelaySeconds": 10, "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3},
        "readinessProbe": {"httpGet": {"path": "/ready", "port": 8080, "scheme": "HTTP"}, "timeoutSeconds": 1, "periodSeconds": 5, "successThreshold": 1, "failureThreshold": 3},
        "terminationMessagePath": "/dev/termination-log",
        "terminationMessagePolicy": "File",
        "imagePullPolicy": "IfNotPresent"
      },
      {
        "name": "metrics",
        "image": "registry.example.com/shop/metrics-exporter:0.9.1",
        "ports": [{"name": "metrics", "containerPort": 9102, "protocol": "TCP"}],
        "resources": {"limits": {"cpu": "100m", "memory": "64Mi"}, "requests": {"cpu": "50m", "memory": "32Mi"}},
        "volumeMounts": [
          {"name": "kube-api-access-%[5]s", "readOnly": true, "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount"}
        ],
        "terminationMessagePath": "/dev/termination-log",
        "terminationMessagePolicy": "File",
        "imagePullPolicy": "IfNotPresent"
      }
    ],
    "restartPolicy": "Always",
    "terminationGracePeriodSeconds": 30,
    "dnsPolicy": "ClusterFirst",
    "serviceAccountName": "default",
    "serviceAccount": "default",
    "nodeName": "worker-%[4]d",
    "securityContext": {},
    "schedulerName": "default-scheduler",
    "tolerations": [
      {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
      {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}
    ],
    "priority": 0,
    "enableServiceLinks": true,
    "preemptionPolicy": "PreemptLowerPriority"
  },
  "status": {
    "phase": "Running",
    "conditions": [
      {"type": "PodReadyToStartContainers", "status": "True", "lastProbeTime": null, "lastTransitionTime": "2026-11-30T09:14:12Z"},
      {"type": "Initialized", "status": "True", "lastProbeTime": null, "lastTransitionTime": "2026-11-30T09:14:07Z"},
      {"type": "Ready", "status": "True", "lastProbeTime": null, "lastTransitionTime": "2026-11-30T09:14:19Z"},
      {"type": "ContainersReady", "status": "True", "lastProbeTime": null, "lastTransitionTime": "2026-11-30T09:14:19Z"},
      {"type": "PodScheduled", "status": "True", "lastProbeTime": null, "lastTransitionTime": "2026-11-30T09:14:07Z"}
    ],
    "hostIP": "172.18.0.%[4]d",
    "hostIPs": [{"ip": "172.18.0.%[4]d"}],
    "podIP": "10.244.1.%[3]d",
    "podIPs": [{"ip": "10.244.1.%[3]d"}],
    "startTime": "2026-11-30T09:14:07Z",
    "containerStatuses": [
      {
        "name": "app",
        "state": {"running": {"startedAt": "2026-11-30T09:14:11Z"}},
        "lastState": {},
        "ready": true,
        "restartCount": 0,
        "image": "registry.example.com/shop/web:1.27.3",
        "imageID": "registry.example.com/shop/web@sha256:4f1c9d0e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e",
        "containerID": "containerd://%064[3]d",
        "started": true,
        "volumeMounts": [
          {"name": "config", "mountPath": "/etc/web", "readOnly": true, "recursiveReadOnly": "Disabled"},
          {"name": "kube-api-access-%[5]s", "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount", "readOnly": true, "recursiveReadOnly": "Disabled"}
        ]
      },
      {
        "name": "metrics",
        "state": {"running": {"startedAt": "2026-11-30T09:14:12Z"}},
        "lastState": {},
        "ready": true,
        "restartCount": 0,
        "image": "registry.example.com/shop/metrics-exporter:0.9.1",
        "imageID": "registry.example.com/shop/metrics-exporter@sha256:9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b1a0f9e8d",
        "containerID": "containerd://%064[3]d",
        "started": true,
        "volumeMounts": [
          {"name": "kube-api-access-%[5]s", "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount", "readOnly": true, "recursiveReadOnly": "Disabled"}
        ]
      }
    ],
    "qosClass": "Burstable"
  }
}`

// realisticPodBytes renders pod number i at resource version rv.
func realisticPodBytes(i, rv int) []byte {
	suffix := fmt.Sprintf("%05s", strconv.FormatInt(int64(i), 36))
	token := fmt.Sprintf("%05s", strconv.FormatInt(int64(i*7919+12345)%60466176, 36))
	return []byte(fmt.Sprintf(realisticPodJSON, suffix, rv, i, i%50, token))
}

// realisticPod decodes pod number i at resource version rv, so that every
// pod owns its strings, maps and byte slices as a freshly decoded one does.
func realisticPod(tb testing.TB, i, rv int) *v1.Pod {
	tb.Helper()
	pod := &v1.Pod{}
	if err := json.Unmarshal(realisticPodBytes(i, rv), pod); err != nil {
		tb.Fatalf("realistic pod %d: %v", i, err)
	}
	return pod
}

func TestRealisticPodDecodes(t *testing.T) {
	pod := realisticPod(t, 7, 100)
	if len(pod.ManagedFields) != 2 || len(pod.ManagedFields[0].FieldsV1.Raw) < 1000 {
		t.Fatalf("managedFields = %d entries", len(pod.ManagedFields))
	}
	if len(pod.Spec.Containers) != 2 || len(pod.Status.ContainerStatuses) != 2 || len(pod.Status.Conditions) != 5 {
		t.Fatalf("pod not realistic: %+v", pod)
	}
	if n := len(realisticPodBytes(7, 100)); n < 5000 {
		t.Fatalf("pod JSON is %d bytes, want ~6 KB", n)
	}
}
