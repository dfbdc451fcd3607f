package controllerruntime

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
)

// wireScheme is the scheme the fake server encodes with, built apart from
// the library under test.
var wireScheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := corev1.AddToScheme(s); err != nil {
		panic(err)
	}
	metav1.AddToGroupVersion(s, metav1.SchemeGroupVersion)
	return s
}()

var wireCodecs = serializer.NewCodecFactory(wireScheme)

// encode encodes obj in mediaType as a kube-apiserver does.
func encode(t testing.TB, mediaType string, obj runtime.Object) []byte {
	t.Helper()
	info, ok := runtime.SerializerInfoForMediaType(wireCodecs.SupportedMediaTypes(), mediaType)
	if !ok {
		t.Fatalf("no serializer for %s", mediaType)
	}
	var buf bytes.Buffer
	if err := wireCodecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion).Encode(obj, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// podServer serves a pod list, its pods, and a watch stream that starts
// with the list (as a watch-list) or after it, then sends the events of
// updates, in JSON or protobuf as the client asks. It records the bytes it
// sent for each object, by name, the last one winning.
type podServer struct {
	t       testing.TB
	pods    []*corev1.Pod
	updates []*corev1.Pod
	*httptest.Server

	mu   sync.Mutex
	sent map[string][]byte // mediaType + "/" + name -> bytes of the object last sent
	// watching is closed when a watch has sent every update.
	watched chan struct{}
	once    sync.Once
}

func newPodServer(t testing.TB, pods, updates []*corev1.Pod) *podServer {
	s := &podServer{t: t, pods: pods, updates: updates, sent: map[string][]byte{}, watched: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func mediaTypeOf(r *http.Request) string {
	if strings.Contains(r.Header.Get("Accept"), runtime.ContentTypeProtobuf) {
		return runtime.ContentTypeProtobuf
	}
	return runtime.ContentTypeJSON
}

func (s *podServer) record(mediaType, name string, b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent[mediaType+"/"+name] = b
}

// sentBytes returns the bytes last sent for the named pod.
func (s *podServer) sentBytes(mediaType, name string) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent[mediaType+"/"+name]
}

func (s *podServer) serve(w http.ResponseWriter, r *http.Request) {
	mediaType := mediaTypeOf(r)
	q := r.URL.Query()
	switch {
	case r.URL.Path == "/api/v1/pods" && q.Get("watch") == "true":
		s.watch(w, r, mediaType, q.Get("sendInitialEvents") == "true")
	case r.URL.Path == "/api/v1/pods":
		list := &corev1.PodList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PodList"}, ListMeta: metav1.ListMeta{ResourceVersion: "100"}}
		for _, p := range s.pods {
			list.Items = append(list.Items, *p)
			s.record(mediaType, p.Name, encode(s.t, mediaType, p))
		}
		w.Header().Set("Content-Type", mediaType)
		_, _ = w.Write(encode(s.t, mediaType, list))
	case strings.HasPrefix(r.URL.Path, "/api/v1/namespaces/"):
		parts := strings.Split(r.URL.Path, "/")
		for _, p := range s.pods {
			if p.Namespace == parts[4] && p.Name == parts[6] {
				b := encode(s.t, mediaType, p)
				s.record(mediaType, p.Name, b)
				w.Header().Set("Content-Type", mediaType)
				_, _ = w.Write(b)
				return
			}
		}
		http.NotFound(w, r)
	default:
		http.NotFound(w, r)
	}
}

// watch streams the watch events: the initial pods when asked, a bookmark
// ending them, then the updates; it then holds the stream open.
func (s *podServer) watch(w http.ResponseWriter, r *http.Request, mediaType string, initial bool) {
	info, _ := runtime.SerializerInfoForMediaType(wireCodecs.SupportedMediaTypes(), mediaType)
	stream := info.StreamSerializer
	contentType := mediaType
	if mediaType == runtime.ContentTypeProtobuf {
		contentType += ";stream=watch"
	}
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(http.StatusOK)
	frames := stream.Framer.NewFrameWriter(w)
	send := func(typ string, obj runtime.Object, name string) {
		raw := encode(s.t, mediaType, obj)
		if name != "" {
			s.record(mediaType, name, raw)
		}
		var buf bytes.Buffer
		if err := stream.Serializer.Encode(&metav1.WatchEvent{Type: typ, Object: runtime.RawExtension{Raw: raw}}, &buf); err != nil {
			s.t.Error(err)
			return
		}
		_, _ = frames.Write(buf.Bytes())
		w.(http.Flusher).Flush()
	}
	if initial {
		for _, p := range s.pods {
			send("ADDED", p, p.Name)
		}
		bookmark := &corev1.Pod{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: metav1.ObjectMeta{
			ResourceVersion: "100", Annotations: map[string]string{metav1.InitialEventsAnnotationKey: "true"}}}
		send("BOOKMARK", bookmark, "")
	}
	for _, p := range s.updates {
		send("MODIFIED", p, p.Name)
	}
	s.once.Do(func() { close(s.watched) })
	<-r.Context().Done()
}

// replicaSetPods returns n pods of one ReplicaSet spread over nodes, as a
// kube-apiserver returns them (managed fields included), and an update of
// each (a label and the status changed).
func replicaSetPods(n int) (pods, updates []*corev1.Pod) {
	for i := range n {
		p := &corev1.Pod{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: metav1.ObjectMeta{
				Name: fmt.Sprintf("web-7d9f8-%05d", i), Namespace: "shop", UID: typesUID(i), ResourceVersion: fmt.Sprint(10 + i),
				GenerateName: "web-7d9f8-",
				Labels:       map[string]string{"app": "web", "pod-template-hash": "7d9f8"},
				Annotations:  map[string]string{"kubectl.kubernetes.io/restartedAt": "2026-12-01T10:00:00Z"},
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-7d9f8", UID: "rs-uid",
					Controller: ptr(true), BlockOwnerDeletion: ptr(true)}},
				ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kube-controller-manager", Operation: metav1.ManagedFieldsOperationUpdate,
					APIVersion: "v1", FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:metadata":{"f:labels":{".":{},"f:app":{}}}}`)}}},
			},
			Spec: corev1.PodSpec{
				NodeName: fmt.Sprintf("node-%03d", i%37),
				Containers: []corev1.Container{{Name: "web", Image: "registry.example/web:1.4.2",
					Ports:     []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}},
					Env:       []corev1.EnvVar{{Name: "MODE", Value: "production"}},
					Resources: corev1.ResourceRequirements{}}},
				Tolerations: []corev1.Toleration{{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr[int64](300)}},
			},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: fmt.Sprintf("10.1.%d.%d", i/250, i%250), HostIP: fmt.Sprintf("192.168.0.%d", i%37)},
		}
		pods = append(pods, p)
		u := p.DeepCopy()
		u.ResourceVersion = fmt.Sprint(1000 + i)
		u.Labels["rollout"] = "b"
		u.Status.Phase = corev1.PodSucceeded
		updates = append(updates, u)
	}
	return pods, updates
}

func ptr[T any](v T) *T { return &v }

func typesUID(i int) types.UID { return types.UID(fmt.Sprintf("5f0c8e2a-0000-4000-8000-%012d", i)) }
