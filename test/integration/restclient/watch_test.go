package restclient

import (
	"context"
	"strconv"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/kubernetes/scheme"
	"github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/test/integration/framework"
)

func TestWatchFromResourceVersion(t *testing.T) {
	for _, contentType := range framework.ContentTypes {
		t.Run(contentType, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			ns := controlPlane.Namespace(t)
			client := framework.RESTClientFor(t, controlPlane.AdminConfig(), corev1.SchemeGroupVersion, contentType)
			configMaps := func() *rest.Request { return client.Get().Namespace(ns).Resource("configmaps") }

			start := &corev1.ConfigMapList{}
			if err := configMaps().Do(ctx).Into(start); err != nil {
				t.Fatalf("list: %v", err)
			}

			// History the watch must replay from start.ResourceVersion.
			a := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a"}, Data: map[string]string{"v": "1"}}
			if err := client.Post().Namespace(ns).Resource("configmaps").Body(a).Do(ctx).Into(a); err != nil {
				t.Fatalf("create a: %v", err)
			}
			a.Data["v"] = "2"
			if err := client.Put().Namespace(ns).Resource("configmaps").Name("a").Body(a).Do(ctx).Error(); err != nil {
				t.Fatalf("update a: %v", err)
			}
			if err := client.Delete().Namespace(ns).Resource("configmaps").Name("a").Do(ctx).Error(); err != nil {
				t.Fatalf("delete a: %v", err)
			}

			w, err := configMaps().
				VersionedParams(&metav1.ListOptions{Watch: true, ResourceVersion: start.ResourceVersion}, scheme.ParameterCodec).
				Watch(ctx)
			if err != nil {
				t.Fatalf("watch: %v", err)
			}
			defer w.Stop()

			// An event that happens while the watch is open.
			b := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "b"}}
			if err := client.Post().Namespace(ns).Resource("configmaps").Body(b).Do(ctx).Error(); err != nil {
				t.Fatalf("create b: %v", err)
			}

			want := []struct {
				typ   watch.EventType
				name  string
				value string
			}{
				{watch.Added, "a", "1"},
				{watch.Modified, "a", "2"},
				{watch.Deleted, "a", "2"},
				{watch.Added, "b", ""},
			}
			lastRV := int64(0)
			for i, w8 := range want {
				select {
				case ev, ok := <-w.ResultChan():
					if !ok {
						t.Fatalf("watch closed after %d events", i)
					}
					cm, isCM := ev.Object.(*corev1.ConfigMap)
					if !isCM {
						t.Fatalf("event %d: %s %T (%v), want %s of a ConfigMap", i, ev.Type, ev.Object, ev.Object, w8.typ)
					}
					if ev.Type != w8.typ || cm.Name != w8.name || cm.Data["v"] != w8.value {
						t.Errorf("event %d: %s %s v=%q, want %s %s v=%q", i, ev.Type, cm.Name, cm.Data["v"], w8.typ, w8.name, w8.value)
					}
					rv, err := strconv.ParseInt(cm.ResourceVersion, 10, 64)
					if err != nil || rv <= lastRV {
						t.Errorf("event %d: resourceVersion %q does not follow %d", i, cm.ResourceVersion, lastRV)
					}
					lastRV = rv
				case <-ctx.Done():
					t.Fatalf("timed out waiting for event %d (%s %s)", i, w8.typ, w8.name)
				}
			}

			// Stop closes the result channel.
			w.Stop()
			deadline := time.After(10 * time.Second)
			for {
				select {
				case _, ok := <-w.ResultChan():
					if !ok {
						return
					}
				case <-deadline:
					t.Fatal("result channel still open 10s after Stop")
				}
			}
		})
	}
}
