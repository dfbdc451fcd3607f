package protodecode

import (
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/listitems"
	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// sameArray reports whether two non-empty slices share their first element.
func sameArray[T any](a, b []T) bool { return len(a) > 0 && len(b) > 0 && &a[0] == &b[0] }

// sameSpec reports whether two pods' specs are one reused spec: their
// tolerations, a run too short for ReusedRun, share an array only then.
func sameSpec(a, b *corev1.Pod) bool { return sameArray(a.Spec.Tolerations, b.Spec.Tolerations) }

// sameContainers reports whether b's containers are a's, or copies of them
// (see wire.ReusedRunParts): their environments are one array each.
func sameContainers(a, b []corev1.Container) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		if !sameArray(a[i].Env, b[i].Env) {
			return false
		}
	}
	return true
}

// decodeInto resets obj and decodes b into it with share, checking it
// against the reference.
func decodeInto(t *testing.T, b []byte, obj message, share *intern.DecodeSharing, fresh bool) {
	t.Helper()
	obj.Reset()
	want := reflect.New(reflect.TypeOf(obj).Elem()).Interface().(message)
	if err := want.Unmarshal(b); err != nil {
		t.Fatal(err)
	}
	if handled, err := IntoSharing(b, obj, share, fresh); !handled || err != nil {
		t.Fatalf("IntoSharing: handled %v, %v", handled, err)
	}
	if !reflect.DeepEqual(obj, want) {
		t.Fatalf("decoded %T differs from the reference\n%s", obj, diff(want, obj))
	}
}

func newShare() *intern.DecodeSharing { return intern.NewDecodeSharing(intern.NewBytes(64, 16<<10)) }

// TestReusedSpecs: the spec of an object is reused from a live object
// decoded before from the same bytes, when that one was new (or an item of
// a list); never from a caller's object, nor from one whose decoding
// failed, nor from one the collector has freed.
func TestReusedSpecs(t *testing.T) {
	pod := wiretest.Pod("web-1")
	data := marshalPod(t, pod)
	other := wiretest.Pod("web-2")
	other.Spec.NodeName = "node-9"
	otherData := marshalPod(t, other)
	list, err := (&corev1.PodList{Items: []corev1.Pod{*pod, *other}}).Marshal()
	if err != nil {
		t.Fatal(err)
	}

	t.Run("new objects share equal specs", func(t *testing.T) {
		share := newShare()
		a, b, c := &corev1.Pod{}, &corev1.Pod{}, &corev1.Pod{}
		decodeInto(t, data, a, share, true)
		decodeInto(t, data, b, share, true)
		decodeInto(t, otherData, c, share, true)
		if !sameSpec(a, b) {
			t.Error("equal specs not shared")
		}
		if sameSpec(a, c) {
			t.Error("different specs shared")
		}
		if !sameContainers(a.Spec.Containers, c.Spec.Containers) {
			t.Error("equal containers of specs that differ in their node not shared")
		}
		runtime.KeepAlive(a)
	})
	t.Run("a caller's object is not kept", func(t *testing.T) {
		share := newShare()
		mine, b := &corev1.Pod{}, &corev1.Pod{}
		decodeInto(t, data, mine, share, false)
		decodeInto(t, data, b, share, true)
		if sameContainers(mine.Spec.Containers, b.Spec.Containers) {
			t.Error("spec of the caller's object reused")
		}
		// The caller decodes into its object again: b is untouched.
		decodeInto(t, otherData, mine, share, false)
		decodeInto(t, data, &corev1.Pod{}, share, true)
	})
	t.Run("items of a caller's list are kept", func(t *testing.T) {
		share := newShare()
		l, b := &corev1.PodList{}, &corev1.Pod{}
		decodeInto(t, list, l, share, false)
		decodeInto(t, otherData, b, share, true)
		if !sameArray(l.Items[1].Spec.Containers, b.Spec.Containers) {
			t.Error("spec of a listed item not reused")
		}
		// A new decode into the same list gets new items; b stays intact.
		decodeInto(t, list, l, share, false)
		decodeInto(t, otherData, &corev1.Pod{}, share, true)
	})
	t.Run("equal specs one after the other in a list are shared", func(t *testing.T) {
		twin := wiretest.Pod("web-1b") // web-1's spec, another name
		runs, err := (&corev1.PodList{Items: []corev1.Pod{*pod, *twin, *other, *pod}}).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		l := &corev1.PodList{}
		decodeInto(t, runs, l, newShare(), false)
		it := l.Items
		if !sameSpec(&it[0], &it[1]) || !sameSpec(&it[0], &it[3]) {
			t.Error("the spec of an item after an equal one not shared")
		}
		if sameSpec(&it[1], &it[2]) || sameSpec(&it[2], &it[3]) {
			t.Error("different specs shared")
		}
		if !sameContainers(it[1].Spec.Containers, it[2].Spec.Containers) {
			t.Error("equal containers of specs that differ in their node not shared")
		}
	})
	t.Run("a list whose decode fails shares nothing after it", func(t *testing.T) {
		share := newShare()
		twins, err := (&corev1.PodList{Items: []corev1.Pod{*pod, *pod}}).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		// A third item says it is five bytes long, and one follows.
		broken := append(twins, 0x0a, 0x05, 0x01)
		failed := &corev1.PodList{}
		if _, err := IntoSharing(broken, failed, share, false); err == nil {
			t.Fatal("truncated list decoded")
		}
		if !sameArray(failed.Items[0].Spec.Containers, failed.Items[1].Spec.Containers) {
			t.Fatal("the second item did not copy the first: the case is not tested")
		}
		b := &corev1.Pod{}
		decodeInto(t, data, b, share, true)
		for _, item := range failed.Items {
			if sameArray(item.Spec.Containers, b.Spec.Containers) {
				t.Error("spec of a failed list decode reused")
			}
		}
	})
	t.Run("a failed decode keeps nothing", func(t *testing.T) {
		share := newShare()
		truncated := data[:len(data)-3] // the spec decodes, the status does not
		a := &corev1.Pod{}
		if _, err := IntoSharing(truncated, a, share, true); err == nil {
			t.Fatal("truncated pod decoded")
		}
		b, c := &corev1.Pod{}, &corev1.Pod{}
		decodeInto(t, data, b, share, true)
		if sameArray(a.Spec.Containers, b.Spec.Containers) {
			t.Error("spec of a failed decode reused")
		}
		decodeInto(t, data, c, share, true)
		if !sameArray(b.Spec.Containers, c.Spec.Containers) {
			t.Error("equal specs not shared after a failed decode")
		}
	})
	t.Run("freed objects are not reused", func(t *testing.T) {
		share := newShare()
		decodeInto(t, data, &corev1.Pod{}, share, true)
		runtime.GC()
		runtime.GC()
		decodeInto(t, data, &corev1.Pod{}, share, true)
	})
}

// TestReusedSpecTwice: an object whose spec is on the wire twice (the
// reference merges the second into the first) is left to the reference,
// so that nothing is merged into a reused spec.
func TestReusedSpecTwice(t *testing.T) {
	pod := wiretest.Pod("web-1")
	pod.Spec.NodeSelector = map[string]string{"zone": "a"}
	data := marshalPod(t, pod)
	second := &corev1.Pod{Spec: corev1.PodSpec{NodeName: "node-2", NodeSelector: map[string]string{"disk": "ssd"}, Containers: []corev1.Container{{Name: "extra"}}}}
	twice := append(append([]byte(nil), data...), marshalPod(t, second)...)
	share := newShare()
	first := &corev1.Pod{}
	decodeInto(t, data, first, share, true)
	before := first.DeepCopy()

	got := &corev1.Pod{}
	if _, err := ours(t, twice, got, share, true), error(nil); err != nil {
		t.Fatal(err)
	}
	want := &corev1.Pod{}
	if err := want.Unmarshal(twice); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("merged spec differs from the reference\n%s", diff(want, got))
	}
	if !reflect.DeepEqual(first, before) {
		t.Fatalf("the object whose spec was reused changed\n%s", diff(before, first))
	}
}

// TestReusedRuns: the repeated message fields of a spec whose elements are
// not looked up one by one (tolerations; see TestReusedRunParts for
// containers and volumes) decode to a slice shared with an equal run
// decoded before; elements in several runs, and short runs, go into a
// private slice; a shared slice has no room to append into.
func TestReusedRuns(t *testing.T) {
	const tolerations = 22 // PodSpec's field number
	big := func(key string) []byte {
		b, err := (&corev1.Toleration{Key: key + strings.Repeat("k", 150), Operator: "Exists", Effect: "NoSchedule"}).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		return lenField(tolerations, b)
	}
	specWith := func(fields ...[]byte) []byte { return cat(fields...) }
	tests := []struct {
		name   string
		spec   []byte
		shared bool // the second decode's tolerations are the first's
	}{
		{"one run", specWith(big("a"), big("b"), lenField(3, []byte("Always"))), true},
		{"several runs", specWith(big("a"), lenField(3, []byte("Always")), big("b")), false},
		{"short run", specWith(lenField(tolerations, lenField(1, []byte("a")))), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			share := newShare()
			a, b := &corev1.Pod{}, &corev1.Pod{}
			// A node name keeps the specs themselves apart.
			decodeInto(t, cat(lenField(1, lenField(1, []byte("a"))), lenField(2, tc.spec)), a, share, true)
			decodeInto(t, cat(lenField(1, lenField(1, []byte("b"))), lenField(2, cat(tc.spec, lenField(10, []byte("node"))))), b, share, true)
			if got := sameArray(a.Spec.Tolerations, b.Spec.Tolerations); got != tc.shared {
				t.Errorf("tolerations shared %v, want %v", got, tc.shared)
			}
			if tc.shared && cap(a.Spec.Tolerations) != len(a.Spec.Tolerations) {
				t.Errorf("a shared slice has capacity %d for %d elements", cap(a.Spec.Tolerations), len(a.Spec.Tolerations))
			}
			runtime.KeepAlive(a)
		})
	}
}

// pointerPod is a pod whose container and volume carry the optional
// messages of TestReusedPointers: a probe and a projected volume source,
// the same for every pod, in a container and a volume named after the pod
// (as the service account token volume is), with a probe path of the
// given length.
func pointerPod(name string, pathLen int) *corev1.Pod {
	expiry := int64(3607)
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: corev1.PodSpec{
			NodeName: "node-" + name,
			Containers: []corev1.Container{{
				Name: "app", Image: "registry.example/app:1",
				VolumeMounts: []corev1.VolumeMount{{Name: "token-" + name, MountPath: "/var/run/secrets"}},
				LivenessProbe: &corev1.Probe{
					ProbeHandler:  corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: strings.Repeat("h", pathLen), Port: intstr.FromInt32(8080)}},
					PeriodSeconds: 10,
				},
			}},
			Volumes: []corev1.Volume{{Name: "token-" + name, VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
				Sources: []corev1.VolumeProjection{
					{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{ExpirationSeconds: &expiry, Path: "token"}},
					{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"}, Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
					{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{
						Path: "namespace", FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"},
					}}}},
				},
			}}}},
		},
	}
}

// TestReusedPointers: the optional messages inside a spec (a container's
// probe, a volume's source) decode to the value decoded before from the
// same bytes while the containers and volumes holding them differ; short
// ones are decoded each time; one on the wire twice (the reference merges
// the second into the first) is left to the reference when the first was
// shared, and the shared value is not written.
func TestReusedPointers(t *testing.T) {
	t.Run("equal probes and volume sources are shared", func(t *testing.T) {
		share := newShare()
		a, b := &corev1.Pod{}, &corev1.Pod{}
		decodeInto(t, marshalPod(t, pointerPod("a", 60)), a, share, true)
		decodeInto(t, marshalPod(t, pointerPod("b", 60)), b, share, true)
		if a.Spec.Containers[0].LivenessProbe != b.Spec.Containers[0].LivenessProbe {
			t.Error("equal probes are not shared")
		}
		if a.Spec.Volumes[0].Projected != b.Spec.Volumes[0].Projected {
			t.Error("equal projected volume sources are not shared")
		}
		if sameArray(a.Spec.Containers, b.Spec.Containers) {
			t.Error("containers that differ in a mount are shared")
		}
		runtime.KeepAlive(a)
	})
	t.Run("short probes are decoded", func(t *testing.T) {
		share := newShare()
		a, b := &corev1.Pod{}, &corev1.Pod{}
		decodeInto(t, marshalPod(t, pointerPod("a", 1)), a, share, true)
		decodeInto(t, marshalPod(t, pointerPod("b", 1)), b, share, true)
		if a.Spec.Containers[0].LivenessProbe == b.Spec.Containers[0].LivenessProbe {
			t.Errorf("a probe of %d bytes is shared", a.Spec.Containers[0].LivenessProbe.Size())
		}
		runtime.KeepAlive(a)
	})
	t.Run("a probe twice", func(t *testing.T) {
		share := newShare()
		first := &corev1.Pod{}
		decodeInto(t, marshalPod(t, pointerPod("a", 60)), first, share, true)
		before := first.DeepCopy()
		// Pod b's container with a second probe (field 10) after its
		// first: the reference merges the period into the first one.
		pod := pointerPod("b", 60)
		container, err := pod.Spec.Containers[0].Marshal()
		if err != nil {
			t.Fatal(err)
		}
		second, err := (&corev1.Probe{PeriodSeconds: 99}).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		pod.Spec.Containers = nil
		spec, err := pod.Spec.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		data := cat(lenField(1, lenField(1, []byte("b"))), lenField(2, cat(spec, lenField(2, cat(container, lenField(10, second))))))
		got := &corev1.Pod{}
		if err := ours(t, data, got, share, true); err != nil {
			t.Fatal(err)
		}
		want := &corev1.Pod{}
		if err := want.Unmarshal(data); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) || got.Spec.Containers[0].LivenessProbe.PeriodSeconds != 99 {
			t.Fatalf("merged probe differs from the reference\n%s", diff(want, got))
		}
		if !reflect.DeepEqual(first, before) {
			t.Fatalf("the pod whose probe was shared changed\n%s", diff(before, first))
		}
	})
}

// TestCollectedListItems decodes a list collecting its items (as for an
// informer with a listitems.Recorder): the list equals the reference's,
// each item is a copy of the allocation recorded for it, and the specs of
// those allocations, not of the list's array, are kept for reuse.
func TestCollectedListItems(t *testing.T) {
	pods := []corev1.Pod{*wiretest.Pod("web-1"), *wiretest.Pod("web-2")}
	pods[1].Spec.NodeName = "node-9"
	data, err := (&corev1.PodList{Items: pods}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	share := newShare()
	rec := new(listitems.Recorder)
	list := &corev1.PodList{}
	if handled, err := IntoCache(data, list, CacheDecode{Sharing: share, Items: rec}, false); !handled || err != nil {
		t.Fatalf("IntoSharing: handled %v, %v", handled, err)
	}
	want := &corev1.PodList{}
	if err := want.Unmarshal(data); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(list, want) {
		t.Fatalf("list differs from the reference\n%s", diff(want, list))
	}
	items, err := rec.Extract(list)
	if err != nil || len(items) != 2 {
		t.Fatalf("Extract = %d items, %v", len(items), err)
	}
	list = nil
	runtime.GC()
	again := &corev1.Pod{}
	decodeInto(t, marshalPod(t, &pods[1]), again, share, true)
	if !sameSpec(items[1].(*corev1.Pod), again) {
		t.Error("the spec of a recorded item is not reused")
	}
	runtime.KeepAlive(items)
}

// TestReusedRunParts: containers that differ from those of a pod decoded
// before only in their mounts (the service account token volume is each
// pod's own) are copies of them with their own mounts; their volumes,
// differing in the token volume's name, likewise. Mounts on the wire in
// two runs, around other fields, decode as the reference decodes them.
func TestReusedRunParts(t *testing.T) {
	podWith := func(name string) *corev1.Pod {
		p := wiretest.Pod(name)
		p.Spec.NodeName = "node-" + name
		p.Spec.Volumes = append(p.Spec.Volumes, pointerPod(name, 1).Spec.Volumes...)
		for c := range p.Spec.Containers {
			p.Spec.Containers[c].VolumeMounts = append(p.Spec.Containers[c].VolumeMounts, corev1.VolumeMount{Name: "token-" + name, MountPath: "/var/run/secrets"})
		}
		return p
	}
	share := newShare()
	a, b := &corev1.Pod{}, &corev1.Pod{}
	decodeInto(t, marshalPod(t, podWith("a")), a, share, true)
	decodeInto(t, marshalPod(t, podWith("b")), b, share, true)
	if sameArray(a.Spec.Containers, b.Spec.Containers) {
		t.Fatal("containers with different mounts are one run")
	}
	for c := range a.Spec.Containers {
		ca, cb := a.Spec.Containers[c], b.Spec.Containers[c]
		if !sameArray(ca.Env, cb.Env) || !sameArray(ca.Ports, cb.Ports) {
			t.Errorf("container %d: the parts equal to pod a's are not a's", c)
		}
		if sameArray(ca.VolumeMounts, cb.VolumeMounts) {
			t.Errorf("container %d: pod b has pod a's mounts", c)
		}
	}
	last := len(b.Spec.Volumes) - 1
	if b.Spec.Volumes[last].Name != "token-b" || b.Spec.Volumes[last].Projected != a.Spec.Volumes[last].Projected {
		t.Errorf("token volume %q: its source is not pod a's", b.Spec.Volumes[last].Name)
	}

	// Pod c's first container has its mounts in two runs, one before its
	// image and one after its other fields.
	c := podWith("c")
	container := c.Spec.Containers[0]
	mounts := container.VolumeMounts
	container.VolumeMounts = nil
	rest, err := container.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var first, second []byte
	for i, m := range mounts {
		mb, err := m.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = cat(first, lenField(9, mb))
		} else {
			second = cat(second, lenField(9, mb))
		}
	}
	others := lenField(2, cat(first, rest, second))
	for _, other := range c.Spec.Containers[1:] {
		ob, err := other.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		others = cat(others, lenField(2, ob))
	}
	c.Spec.Containers = nil
	spec, err := c.Spec.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	data := cat(lenField(1, lenField(1, []byte("c"))), lenField(2, cat(others, spec)))
	got := &corev1.Pod{}
	decodeInto(t, data, got, share, true)
	if !sameArray(got.Spec.Containers[0].Env, a.Spec.Containers[0].Env) {
		t.Error("pod c's container with split mounts is not a copy of pod a's")
	}
	runtime.KeepAlive(a)
}

// TestReusedManagedFieldsSets: the managed-fields sets of an object's next
// version, the same bytes while the entries' times change, are the sets of
// the version decoded before, when that one was new; a set that changed is
// decoded, and a caller's object lends none.
func TestReusedManagedFieldsSets(t *testing.T) {
	next := func(p *corev1.Pod, statusSet string) *corev1.Pod {
		n := p.DeepCopy()
		for i := range n.ManagedFields {
			later := metav1.NewTime(n.ManagedFields[i].Time.Add(time.Minute))
			n.ManagedFields[i].Time = &later
		}
		if statusSet != "" {
			n.ManagedFields[1].FieldsV1 = &metav1.FieldsV1{Raw: []byte(statusSet)}
		}
		n.ResourceVersion += "1"
		return n
	}
	first := wiretest.Pod("web-1")
	if len(first.ManagedFields) < 2 {
		t.Fatal("the test pod has fewer than two managed-fields entries")
	}
	changedSet := `{"f:status":{"f:phase":{},"f:podIP":{},"f:reason":{},"f:message":{},"f:startTime":{},"f:hostIP":{}}}`
	tests := []struct {
		name      string
		fresh     bool   // the first version is new (as in an informer's cache)
		statusSet string // the second version's status set, if it changed
		want      []bool // each entry's set is the first version's
	}{
		{"unchanged sets", true, "", []bool{true, true}},
		{"a changed set", true, changedSet, []bool{true, false}},
		{"a caller's object", false, "", []bool{false, false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			share := newShare()
			a, b := &corev1.Pod{}, &corev1.Pod{}
			decodeInto(t, marshalPod(t, first), a, share, tc.fresh)
			decodeInto(t, marshalPod(t, next(first, tc.statusSet)), b, share, true)
			for i, want := range tc.want {
				if got := a.ManagedFields[i].FieldsV1 == b.ManagedFields[i].FieldsV1; got != want {
					t.Errorf("entry %d: set is the first version's: %v, want %v", i, got, want)
				}
			}
			runtime.KeepAlive(a)
		})
	}
}
