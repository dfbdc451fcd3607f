package restclient

import (
	"context"
	"maps"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeclient/client-go/kubernetes/scheme"
	"github.com/kubeclient/client-go/test/integration/framework"
)

func TestConfigMapCRUD(t *testing.T) {
	for _, contentType := range framework.ContentTypes {
		t.Run(contentType, func(t *testing.T) {
			ctx := context.Background()
			ns := controlPlane.Namespace(t)
			cfg := controlPlane.AdminConfig()
			var wire framework.WireLog
			wire.Attach(cfg)
			client := framework.RESTClientFor(t, cfg, corev1.SchemeGroupVersion, contentType)

			// Create.
			want := map[string]string{"colour": "blue", "size": "large"}
			in := &corev1.ConfigMap{
				ObjectMeta: metav1.ObjectMeta{Name: "settings", Labels: map[string]string{"app": "crud"}},
				Data:       want,
			}
			created := &corev1.ConfigMap{}
			if err := client.Post().Namespace(ns).Resource("configmaps").Body(in).Do(ctx).Into(created); err != nil {
				t.Fatalf("create: %v", err)
			}
			if created.Name != "settings" || created.Namespace != ns || created.UID == "" || created.ResourceVersion == "" {
				t.Fatalf("create returned name=%q namespace=%q uid=%q rv=%q", created.Name, created.Namespace, created.UID, created.ResourceVersion)
			}
			if !maps.Equal(created.Data, want) {
				t.Errorf("create returned data %v, want %v", created.Data, want)
			}

			// Get, with the status code the server answered.
			got := &corev1.ConfigMap{}
			var status int
			if err := client.Get().Namespace(ns).Resource("configmaps").Name("settings").Do(ctx).StatusCode(&status).Into(got); err != nil {
				t.Fatalf("get: %v", err)
			}
			if status != 200 || got.UID != created.UID || !maps.Equal(got.Data, want) {
				t.Errorf("get: status %d uid %q data %v, want 200 %q %v", status, got.UID, got.Data, created.UID, want)
			}

			// Update.
			got.Data["size"] = "small"
			updated := &corev1.ConfigMap{}
			if err := client.Put().Namespace(ns).Resource("configmaps").Name("settings").Body(got).Do(ctx).Into(updated); err != nil {
				t.Fatalf("update: %v", err)
			}
			if updated.Data["size"] != "small" || updated.ResourceVersion == created.ResourceVersion {
				t.Errorf("update returned data %v rv %q (created rv %q)", updated.Data, updated.ResourceVersion, created.ResourceVersion)
			}

			// Patch (merge patch works for every content type of the response).
			patched := &corev1.ConfigMap{}
			if err := client.Patch(types.MergePatchType).Namespace(ns).Resource("configmaps").Name("settings").
				Body([]byte(`{"data":{"shape":"round"}}`)).Do(ctx).Into(patched); err != nil {
				t.Fatalf("patch: %v", err)
			}
			if patched.Data["shape"] != "round" || patched.Data["colour"] != "blue" {
				t.Errorf("patch returned data %v", patched.Data)
			}

			// List with a label selector, encoded through the parameter codec.
			list := &corev1.ConfigMapList{}
			if err := client.Get().Namespace(ns).Resource("configmaps").
				VersionedParams(&metav1.ListOptions{LabelSelector: "app=crud"}, scheme.ParameterCodec).
				Do(ctx).Into(list); err != nil {
				t.Fatalf("list: %v", err)
			}
			if len(list.Items) != 1 || list.Items[0].Name != "settings" || list.ResourceVersion == "" {
				t.Errorf("list returned %d items (rv %q), want just settings", len(list.Items), list.ResourceVersion)
			}
			none := &corev1.ConfigMapList{}
			if err := client.Get().Namespace(ns).Resource("configmaps").
				VersionedParams(&metav1.ListOptions{LabelSelector: "app=other"}, scheme.ParameterCodec).
				Do(ctx).Into(none); err != nil {
				t.Fatalf("list: %v", err)
			}
			if len(none.Items) != 0 {
				t.Errorf("list app=other returned %d items, want 0", len(none.Items))
			}

			// Delete, then the object is gone.
			if err := client.Delete().Namespace(ns).Resource("configmaps").Name("settings").Do(ctx).Error(); err != nil {
				t.Fatalf("delete: %v", err)
			}
			err := client.Get().Namespace(ns).Resource("configmaps").Name("settings").Do(ctx).Error()
			if !apierrors.IsNotFound(err) {
				t.Errorf("get after delete: %v, want NotFound", err)
			}

			wire.Check(t, contentType)
		})
	}
}

func TestRawBodyAndDoRaw(t *testing.T) {
	ctx := context.Background()
	ns := controlPlane.Namespace(t)
	client := framework.RESTClientFor(t, controlPlane.AdminConfig(), corev1.SchemeGroupVersion, framework.ContentTypeJSON)

	body := []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"raw"},"data":{"k":"v"}}`)
	if err := client.Post().Namespace(ns).Resource("configmaps").SetHeader("Content-Type", "application/json").
		Body(body).Do(ctx).Error(); err != nil {
		t.Fatalf("create from bytes: %v", err)
	}
	raw, err := client.Get().Namespace(ns).Resource("configmaps").Name("raw").DoRaw(ctx)
	if err != nil {
		t.Fatalf("DoRaw: %v", err)
	}
	obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(raw, nil, nil)
	if err != nil {
		t.Fatalf("decoding %s: %v", raw, err)
	}
	cm, ok := obj.(*corev1.ConfigMap)
	if !ok || cm.Data["k"] != "v" {
		t.Errorf("DoRaw gave %T %v, want a ConfigMap with k=v", obj, obj)
	}

	// Stream returns the body of a subresource-free GET unchanged.
	rc, err := client.Get().AbsPath("/version").Stream(ctx)
	if err != nil {
		t.Fatalf("Stream /version: %v", err)
	}
	defer rc.Close()
	buf := make([]byte, 1)
	if n, _ := rc.Read(buf); n != 1 || buf[0] != '{' {
		t.Errorf("/version stream starts with %q, want '{'", buf[:n])
	}
}
