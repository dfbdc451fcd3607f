package record_test

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/kubernetes/fake"
	"github.com/kubeclient/client-go/kubernetes/scheme"
	typedcorev1 "github.com/kubeclient/client-go/kubernetes/typed/core/v1"
	"github.com/kubeclient/client-go/tools/record"
)

// A controller reports what it does as Events on the objects it acts on.
// The broadcaster writes them to the API server (here the fake clientset)
// in the background; the example waits for the Event by watching Events.
func ExampleNewBroadcaster() {
	ctx := context.Background()
	clientset := fake.NewClientset()
	events, err := clientset.CoreV1().Events("default").Watch(ctx, metav1.ListOptions{})
	if err != nil {
		panic(err)
	}
	defer events.Stop()

	broadcaster := record.NewBroadcaster()
	defer broadcaster.Shutdown()
	// The sink writes each Event to the namespace of the object it is
	// about. With a real clientset, Events("") does; the fake clientset
	// needs a namespace given here to do the same.
	broadcaster.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: clientset.CoreV1().Events("default")})
	recorder := broadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: "web-controller"})

	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "default", UID: "1234"}}
	recorder.Eventf(pod, corev1.EventTypeNormal, "Scaled", "scaled %s to %d replicas", "web", 3)

	var ev *corev1.Event
	select {
	case e := <-events.ResultChan():
		ev, _ = e.Object.(*corev1.Event)
	case <-time.After(time.Minute): // only if the Event is lost
	}
	if ev == nil {
		fmt.Println("no Event was written")
		return
	}
	fmt.Println(ev.Type, ev.Reason, ev.Message)
	fmt.Println(ev.InvolvedObject.Kind, ev.InvolvedObject.Name, ev.Source.Component, ev.Count)
	// Output:
	// Normal Scaled scaled web to 3 replicas
	// Pod web-1 web-controller 1
}

// In a unit test, a FakeRecorder collects Events as strings on a channel.
func ExampleNewFakeRecorder() {
	recorder := record.NewFakeRecorder(10)
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "default"}}
	recorder.Eventf(pod, corev1.EventTypeWarning, "FailedSync", "retrying in %s", "5s")
	recorder.Event(pod, corev1.EventTypeNormal, "Synced", "pod is up to date")
	fmt.Println(<-recorder.Events)
	fmt.Println(<-recorder.Events)
	// Output:
	// Warning FailedSync retrying in 5s
	// Normal Synced pod is up to date
}
