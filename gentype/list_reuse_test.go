package gentype_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"sync/atomic"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/kubernetes/scheme"
	corev1client "github.com/kubeclient/client-go/kubernetes/typed/core/v1"
	"github.com/kubeclient/client-go/rest"
)

// configMapList returns the n-th list the server below sends: large, with
// contents of its own in every byte field, so that a list decoded from a
// body whose buffer a later List reuses would show the later bytes.
func configMapList(n int) *corev1.ConfigMapList {
	list := &corev1.ConfigMapList{ListMeta: metav1.ListMeta{ResourceVersion: strconv.Itoa(n)}}
	for i := range 200 {
		list.Items = append(list.Items, corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%d", i), Namespace: "ns", ManagedFields: []metav1.ManagedFieldsEntry{{
				Manager: "test", Operation: metav1.ManagedFieldsOperationApply, FieldsType: "FieldsV1",
				FieldsV1: &metav1.FieldsV1{Raw: []byte(fmt.Sprintf(`{"f:data":{"f:list-%d-item-%d":{}}}`, n, i))},
			}}},
			Data:       map[string]string{"list": strconv.Itoa(n)},
			BinaryData: map[string][]byte{"blob": bytes.Repeat([]byte{byte(n), byte(i)}, 1<<10)},
		})
	}
	return list
}

// TestListResultsOutliveLaterLists lists large protobuf lists one after the
// other, as an informer's pages come: the body of each may be read into a
// buffer that the next List reuses, and no list decoded before may change.
func TestListResultsOutliveLaterLists(t *testing.T) {
	info, _ := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeProtobuf)
	encoder := scheme.Codecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion)
	var served atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := runtime.Encode(encoder, configMapList(int(served.Add(1))))
		if err != nil {
			t.Error(err)
			return
		}
		w.Header().Set("Content-Type", runtime.ContentTypeProtobuf)
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write(body)
	}))
	defer ts.Close()
	// The generated client, set up as users get it.
	core, err := corev1client.NewForConfig(&rest.Config{Host: ts.URL, QPS: -1, ContentConfig: rest.ContentConfig{ContentType: runtime.ContentTypeProtobuf}})
	if err != nil {
		t.Fatal(err)
	}
	client := core.ConfigMaps("ns")
	var lists []*corev1.ConfigMapList
	for range 6 {
		list, err := client.List(context.Background(), metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		lists = append(lists, list)
	}
	for i, got := range lists {
		want := configMapList(i + 1)
		if !reflect.DeepEqual(got.Items, want.Items) || got.ResourceVersion != want.ResourceVersion {
			t.Errorf("list %d changed after later lists", i+1)
		}
	}
}
