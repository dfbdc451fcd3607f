// Command fake-client shows how controller code written against
// kubernetes.Interface runs unchanged on the in-memory clientset of
// kubernetes/fake. It seeds a fake cluster with a few pods, runs one pass of
// a small "node drainer" that evicts the pods of a cordoned node, and prints
// what is left. main_test.go shows the same function under a unit test.
package main

import (
	"context"
	"fmt"
	"os"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/kubernetes/fake"
)

// drainNode evicts every pod scheduled on node, unless the node is
// schedulable, and returns the names of the evicted pods. It only uses
// kubernetes.Interface, so it works on a real clientset and on a fake one.
func drainNode(ctx context.Context, cs kubernetes.Interface, node string) ([]string, error) {
	n, err := cs.CoreV1().Nodes().Get(ctx, node, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("reading node %s: %w", node, err)
	}
	if !n.Spec.Unschedulable {
		return nil, nil
	}
	pods, err := cs.CoreV1().Pods(metav1.NamespaceAll).List(ctx, metav1.ListOptions{FieldSelector: "spec.nodeName=" + node})
	if err != nil {
		return nil, fmt.Errorf("listing pods of node %s: %w", node, err)
	}
	var evicted []string
	for _, p := range pods.Items {
		if p.Spec.NodeName != node {
			// Fake clientsets, like client-go's, ignore field selectors.
			continue
		}
		eviction := &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: p.Name, Namespace: p.Namespace}}
		if err := cs.CoreV1().Pods(p.Namespace).EvictV1(ctx, eviction); err != nil {
			return evicted, fmt.Errorf("evicting %s/%s: %w", p.Namespace, p.Name, err)
		}
		evicted = append(evicted, p.Namespace+"/"+p.Name)
	}
	return evicted, nil
}

func newPod(namespace, name, node string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
		Spec:       corev1.PodSpec{NodeName: node},
	}
}

func main() {
	ctx := context.Background()
	cs := fake.NewClientset(
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-a"}, Spec: corev1.NodeSpec{Unschedulable: true}},
		newPod("default", "web-1", "node-a"),
		newPod("default", "web-2", "node-b"),
		newPod("batch", "job-1", "node-a"),
	)
	evicted, err := drainNode(ctx, cs, "node-a")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("evicted:", evicted)
	left, err := cs.CoreV1().Pods(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, p := range left.Items {
		fmt.Printf("still running: %s/%s on %s\n", p.Namespace, p.Name, p.Spec.NodeName)
	}
}
