package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kubeclient/client-go/informers"
	"github.com/kubeclient/client-go/kubernetes/fake"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestPodWatcherFollowsPods(t *testing.T) {
	client := fake.NewClientset(&corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "a"}, Status: corev1.PodStatus{Phase: corev1.PodPending},
	})
	factory := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace("ns"))
	var out lockedBuffer
	w, err := newPodWatcher(factory.Core().V1().Pods().Informer(), &out)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	factory.Start(ctx.Done())
	done := make(chan struct{})
	go func() { defer close(done); w.run(ctx) }()

	waitFor := func(line string) {
		t.Helper()
		err := wait.PollUntilContextCancel(ctx, 10*time.Millisecond, true, func(context.Context) (bool, error) {
			return strings.Contains(out.String(), line), nil
		})
		if err != nil {
			t.Fatalf("no %q in output:\n%s", line, out.String())
		}
	}
	waitFor("pod ns/a phase=Pending\n")

	pods := client.CoreV1().Pods("ns")
	pod, _ := pods.Get(ctx, "a", metav1.GetOptions{})
	pod.Status.Phase = corev1.PodRunning
	if _, err := pods.Update(ctx, pod, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor("pod ns/a phase=Running\n")
	if err := pods.Delete(ctx, "a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor("pod ns/a deleted\n")

	cancel()
	<-done
	factory.Shutdown()
}

func TestProcessNextRetriesThenGivesUp(t *testing.T) {
	client := fake.NewClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	var out bytes.Buffer
	w, err := newPodWatcher(factory.Core().V1().Pods().Informer(), &out)
	if err != nil {
		t.Fatal(err)
	}
	defer w.queue.ShutDown()
	calls := 0
	w.report = func(string) error { calls++; return errors.New("flaky") }
	w.queue.Add("ns/x")
	for calls < 6 {
		if !w.processNext() {
			t.Fatal("queue shut down")
		}
	}
	if got := strings.Count(out.String(), "retrying ns/x: flaky"); got != 5 {
		t.Errorf("retries = %d, want 5\n%s", got, out.String())
	}
	if !strings.Contains(out.String(), "giving up on ns/x: flaky") {
		t.Errorf("no give-up line:\n%s", out.String())
	}
	if n := w.queue.NumRequeues("ns/x"); n != 0 {
		t.Errorf("NumRequeues after giving up = %d, want 0", n)
	}
}
