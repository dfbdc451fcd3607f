package protodecode

import (
	"fmt"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/kubeclient/client-go/internal/protodecode/wire"
	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// TestStreamStrings decodes the objects of a watch stream one after the
// other with the strings the stream keeps between them (more strings than
// its slots, so that they evict each other): each object equals the
// reference's, whatever the strings left by the objects before it.
func TestStreamStrings(t *testing.T) {
	share := newShare()
	stream := new(wire.StreamStrings)
	for i := range 300 {
		pod := wiretest.Pod(fmt.Sprintf("web-%d", i))
		pod.Namespace = fmt.Sprintf("team-%d", i%7)
		pod.Labels["build"] = fmt.Sprintf("b%0*d", i%40, i)
		pod.Spec.NodeName = fmt.Sprintf("node-%d", i%13)
		pod.Status.Conditions[0].Reason = fmt.Sprintf("Reason%d", i%5)
		data := marshalPod(t, pod)
		want := &corev1.Pod{}
		if err := want.Unmarshal(data); err != nil {
			t.Fatal(err)
		}
		got := &corev1.Pod{}
		if handled, err := IntoCache(data, got, CacheDecode{Sharing: share, Strings: stream}, true); !handled || err != nil {
			t.Fatalf("event %d: handled %v, %v", i, handled, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("event %d differs from the reference\n%s", i, diff(want, got))
		}
	}
}
