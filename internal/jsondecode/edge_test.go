package jsondecode

import (
	"os"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func TestIntoMatchesReferenceOnPodFixture(t *testing.T) {
	data, err := os.ReadFile("testdata/pod.json")
	if err != nil {
		t.Fatal(err)
	}
	var pod corev1.Pod
	if handled, err := Into(data, &pod); !handled || err != nil {
		t.Fatalf("Into: handled %v, err %v", handled, err)
	}
	check(t, data, &corev1.Pod{})
	if pod.Name != "web-frontend-7c9d8f6b5d-x2k9q" || len(pod.ManagedFields) != 2 || len(pod.Status.Conditions) != 5 {
		t.Fatalf("fixture decoded wrongly: %+v", pod.ObjectMeta)
	}
}

// TestIntoMatchesReferenceOnLongList decodes a list longer than the
// documents lex.Index indexes (it scans those instead), valid and cut short.
func TestIntoMatchesReferenceOnLongList(t *testing.T) {
	pod, err := os.ReadFile("testdata/pod.json")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"7"},"items":[`)
	for i := 0; b.Len() < 9<<20; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(pod)
	}
	b.WriteString(`]}`)
	data := []byte(b.String())
	var list corev1.PodList
	if handled, err := Into(data, &list); !handled || err != nil {
		t.Fatalf("Into: handled %v, err %v", handled, err)
	}
	if len(list.Items) < 1000 || list.Items[len(list.Items)-1].Name != "web-frontend-7c9d8f6b5d-x2k9q" {
		t.Fatalf("decoded %d items wrongly", len(list.Items))
	}
	check(t, data, &corev1.PodList{})
	check(t, data[:len(data)-2], &corev1.PodList{})
}

// TestIntoMatchesReferenceOnEdgeCases lists inputs that exercise one rule
// of the reference decoder each.
func TestIntoMatchesReferenceOnEdgeCases(t *testing.T) {
	populated := func() *corev1.Pod {
		q := resource.MustParse("1")
		return &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: "old", Labels: map[string]string{"keep": "1", "a": "old"}, DeletionGracePeriodSeconds: new(int64)},
			Spec: corev1.PodSpec{
				Containers:            append(make([]corev1.Container, 0, 4), corev1.Container{Name: "c0", Image: "i0"}, corev1.Container{Name: "c1", Image: "i1"}),
				Overhead:              corev1.ResourceList{"cpu": q},
				NodeSelector:          map[string]string{"x": "y"},
				ActiveDeadlineSeconds: new(int64),
			},
		}
	}
	cases := []struct {
		name string
		json string
	}{
		{"empty object", `{}`},
		{"top-level null", `null`},
		{"top-level whitespace", " \n\t{\"kind\":\"Pod\"}\r\n "},
		{"top-level array", `[1,2]`},
		{"top-level string", `"pod"`},
		{"top-level number", `12`},
		{"trailing garbage", `{} {}`},
		{"empty input", ``},
		{"truncated", `{"metadata":{"name":"x"`},
		{"duplicate keys, last wins", `{"metadata":{"name":"a","name":"b"}}`},
		{"duplicate objects merge", `{"metadata":{"labels":{"a":"1"}},"metadata":{"labels":{"b":"2"}}}`},
		{"null then value", `{"metadata":{"labels":null,"labels":{"b":"2"}}}`},
		{"wrong-case key ignored", `{"Metadata":{"name":"a"},"metadata":{"Name":"b"}}`},
		{"escaped key matches", `{"\u006detadata":{"n\u0061me":"esc"}}`},
		{"unknown fields skipped", `{"zzz":{"a":[1,{"b":null}],"c":"\""},"metadata":{"name":"x"},"yyy":[[]]}`},
		{"nulls everywhere", `{"kind":null,"metadata":{"name":null,"labels":null,"creationTimestamp":null,"deletionGracePeriodSeconds":null,"ownerReferences":null},"spec":{"containers":null,"overhead":null,"activeDeadlineSeconds":null,"nodeSelector":null},"status":null}`},
		{"string into int", `{"spec":{"activeDeadlineSeconds":"5"}}`},
		{"float into int", `{"spec":{"activeDeadlineSeconds":1.5}}`},
		{"exponent into int", `{"spec":{"activeDeadlineSeconds":1e3}}`},
		{"int64 overflow", `{"spec":{"activeDeadlineSeconds":9223372036854775808}}`},
		{"int64 min", `{"spec":{"activeDeadlineSeconds":-9223372036854775808}}`},
		{"int32 overflow", `{"spec":{"containers":[{"ports":[{"containerPort":2147483648}]}]}}`},
		{"negative zero", `{"spec":{"activeDeadlineSeconds":-0}}`},
		{"number into string", `{"metadata":{"name":5}}`},
		{"object into string", `{"metadata":{"name":{}}}`},
		{"array into struct", `{"metadata":[]}`},
		{"string into struct", `{"spec":"x"}`},
		{"bool into pointer", `{"spec":{"activeDeadlineSeconds":true}}`},
		{"type error then more fields", `{"metadata":{"name":1,"namespace":"ns"},"spec":{"nodeName":"n"}}`},
		{"shorter array into longer slice", `{"spec":{"containers":[{"image":"new"}]}}`},
		{"longer array within capacity", `{"spec":{"containers":[{"image":"a"},{"image":"b"},{"image":"c"}]}}`},
		{"longer array beyond capacity", `{"spec":{"containers":[{},{},{},{},{},{}]}}`},
		{"empty array", `{"spec":{"containers":[]}}`},
		{"array failing midway", `{"spec":{"containers":[{"image":"a"},{"image":5},{"image":"c"}]}}`},
		{"map merge", `{"metadata":{"labels":{"a":"new","b":"2"}}}`},
		{"map value type error", `{"metadata":{"labels":{"a":1,"b":"2"}}}`},
		{"quantity map", `{"spec":{"overhead":{"cpu":"250m","memory":"1Gi","bad":null}}}`},
		{"bad quantity", `{"spec":{"overhead":{"cpu":"abc"}}}`},
		{"quantity number", `{"spec":{"overhead":{"cpu":2}}}`},
		{"bad time", `{"metadata":{"creationTimestamp":"yesterday"}}`},
		{"time number", `{"metadata":{"creationTimestamp":5}}`},
		{"time escaped", `{"metadata":{"creationTimestamp":"2026-11-30T09:14:27\u005a"}}`},
		{"pointer time null", `{"metadata":{"deletionTimestamp":null}}`},
		{"int-or-string forms", `{"spec":{"containers":[{"livenessProbe":{"httpGet":{"port":"http"}},"readinessProbe":{"httpGet":{"port":8080}},"startupProbe":{"httpGet":{"port":null}}}]}}`},
		{"int-or-string bad", `{"spec":{"containers":[{"livenessProbe":{"httpGet":{"port":true}}}]}}`},
		{"int-or-string overflow", `{"spec":{"containers":[{"livenessProbe":{"httpGet":{"port":4294967296}}}]}}`},
		{"unicode escapes", `{"metadata":{"name":"\u00e9\ud83d\ude00\ud800x\udc00\\\/\b\f\n\r\t"}}`},
		{"invalid utf-8", "{\"metadata\":{\"name\":\"a\xff\xfeb\xc3\",\"labels\":{\"k\xff\":\"v\xe2\x82\"}}}"},
		{"control character", "{\"metadata\":{\"name\":\"a\x01\"}}"},
		{"bad escape", `{"metadata":{"name":"\x"}}`},
		{"deep nesting", `{"x":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`},
		{"deep nesting within limit", `{"x":` + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + `}`},
		{"leading zero", `{"spec":{"activeDeadlineSeconds":01}}`},
		{"bad literal", `{"spec":{"hostNetwork":tru}}`},
		{"bool fields", `{"spec":{"hostNetwork":true,"hostPID":false,"hostIPC":null}}`},
		{"bool from string", `{"spec":{"hostNetwork":"true"}}`},
		{"huge float", `{"spec":{"activeDeadlineSeconds":1e400}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			check(t, []byte(c.json), &corev1.Pod{})
			check(t, []byte(c.json), populated())
		})
	}
}

func TestIntoBase64AndOtherKinds(t *testing.T) {
	for _, c := range []struct {
		json string
		obj  runtime.Object
	}{
		{`{"data":{"a":"aGVsbG8=","b":"","c":null,"d":"!!","e":"aGVs\nbG8="}}`, &corev1.Secret{}},
		{`{"data":{"a":[104,105]}}`, &corev1.Secret{}},
		{`{"binaryData":{"a":"aGVsbG8\/"}}`, &corev1.ConfigMap{}},
		{`{"spec":{"replicas":3,"strategy":{"rollingUpdate":{"maxSurge":"25%","maxUnavailable":1}}}}`, &appsv1.Deployment{}},
		{`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1"}}`, &metav1.WatchEvent{}},
		{`{"type":"ADDED","object":null}`, &metav1.WatchEvent{}},
		{`{"kind":"Status","status":"Failure","code":404,"details":{"causes":[{"reason":"x"}],"retryAfterSeconds":3}}`, &metav1.Status{}},
		{`{"columnDefinitions":[{"name":"n"}],"rows":[{"cells":["a",1,2.5,true,null,{"x":[1]}],"object":{"kind":"Pod"}}]}`, &metav1.Table{}},
		{`{"items":[{"kind":"Pod"},null,"x",3]}`, &metav1.List{}},
		{`{"metadata":{"resourceVersion":"5","continue":"c","remainingItemCount":7},"items":[{"metadata":{"name":"p"}}]}`, &corev1.PodList{}},
	} {
		check(t, []byte(c.json), c.obj)
	}
}

func TestIntoRefusesNilAndUnknownTypes(t *testing.T) {
	if handled, err := Into([]byte(`{}`), (*corev1.Pod)(nil)); !handled || err == nil {
		t.Fatalf("nil *Pod: handled %v, err %v; want handled with an error", handled, err)
	}
	u := &runtime.Unknown{}
	if handled, err := Into([]byte(`{}`), u); handled || err != nil {
		t.Fatalf("runtime.Unknown: handled %v, err %v; want not handled", handled, err)
	}
}
