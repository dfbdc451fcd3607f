package testing

import (
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

func TestApplyJSONPatch(t *testing.T) {
	tests := []struct {
		name    string
		doc     string
		patch   string
		want    string
		wantErr bool
	}{
		{"add to object", `{"a":1}`, `[{"op":"add","path":"/b","value":2}]`, `{"a":1,"b":2}`, false},
		{"append to array", `{"l":[1,2]}`, `[{"op":"add","path":"/l/-","value":3}]`, `{"l":[1,2,3]}`, false},
		{"insert into array", `{"l":[1,3]}`, `[{"op":"add","path":"/l/1","value":2}]`, `{"l":[1,2,3]}`, false},
		{"remove from array", `{"l":[1,2,3]}`, `[{"op":"remove","path":"/l/0"}]`, `{"l":[2,3]}`, false},
		{"replace", `{"a":{"b":1}}`, `[{"op":"replace","path":"/a/b","value":"x"}]`, `{"a":{"b":"x"}}`, false},
		{"replace missing", `{}`, `[{"op":"replace","path":"/a","value":1}]`, ``, true},
		{"move", `{"a":1}`, `[{"op":"move","from":"/a","path":"/b"}]`, `{"b":1}`, false},
		{"copy", `{"a":{"x":1}}`, `[{"op":"copy","from":"/a","path":"/b"}]`, `{"a":{"x":1},"b":{"x":1}}`, false},
		{"escaped key", `{"a/b":1,"m~n":2}`, `[{"op":"remove","path":"/a~1b"},{"op":"remove","path":"/m~0n"}]`, `{}`, false},
		{"test passes", `{"a":1}`, `[{"op":"test","path":"/a","value":1},{"op":"add","path":"/b","value":1}]`, `{"a":1,"b":1}`, false},
		{"test fails", `{"a":1}`, `[{"op":"test","path":"/a","value":2}]`, ``, true},
		{"missing parent", `{}`, `[{"op":"add","path":"/a/b","value":1}]`, ``, true},
		{"unknown op", `{}`, `[{"op":"frobnicate","path":"/a"}]`, ``, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var doc interface{}
			var ops []map[string]interface{}
			must(t, utiljson.Unmarshal([]byte(tc.doc), &doc))
			must(t, utiljson.Unmarshal([]byte(tc.patch), &ops))
			got, err := applyJSONPatch(doc, ops)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error = %v, wantErr %v", err, tc.wantErr)
			}
			if tc.wantErr {
				return
			}
			var want interface{}
			must(t, utiljson.Unmarshal([]byte(tc.want), &want))
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}

func TestStrategicMergeDirectives(t *testing.T) {
	d := deployment("ns", "d", 1)
	d.Spec.Template.Spec.Containers = []corev1.Container{{Name: "a", Image: "a:1", Env: []corev1.EnvVar{{Name: "X", Value: "1"}}}}
	d.Spec.Strategy.Type = appsv1.RollingUpdateDeploymentStrategyType
	d.Spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{}
	tests := []struct {
		name  string
		patch string
		check func(t *testing.T, d *appsv1.Deployment)
	}{
		{"nested merge by key", `{"spec":{"template":{"spec":{"containers":[{"name":"a","env":[{"name":"Y","value":"2"}]}]}}}}`,
			func(t *testing.T, d *appsv1.Deployment) {
				env := d.Spec.Template.Spec.Containers[0].Env
				if len(env) != 2 || d.Spec.Template.Spec.Containers[0].Image != "a:1" {
					t.Errorf("containers = %+v", d.Spec.Template.Spec.Containers)
				}
			}},
		{"replace directive", `{"spec":{"template":{"spec":{"$patch":"replace","containers":[{"name":"b","image":"b"}]}}}}`,
			func(t *testing.T, d *appsv1.Deployment) {
				if c := d.Spec.Template.Spec.Containers; len(c) != 1 || c[0].Name != "b" {
					t.Errorf("containers = %+v", c)
				}
			}},
		{"retainKeys", `{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}`,
			func(t *testing.T, d *appsv1.Deployment) {
				if d.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType || d.Spec.Strategy.RollingUpdate != nil {
					t.Errorf("strategy = %+v", d.Spec.Strategy)
				}
			}},
		{"null deletes", `{"spec":{"replicas":null}}`,
			func(t *testing.T, d *appsv1.Deployment) {
				if d.Spec.Replicas != nil {
					t.Errorf("replicas = %v, want nil", *d.Spec.Replicas)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := patchObject(d.DeepCopy(), "application/strategic-merge-patch+json", []byte(tc.patch))
			must(t, err)
			tc.check(t, out.(*appsv1.Deployment))
		})
	}
}

func TestObjectPatchOfNonObjectIsRejected(t *testing.T) {
	tests := []struct {
		name      string
		patchType types.PatchType
		patch     string
	}{
		{"merge patch with a JSON patch body", types.MergePatchType, `[{"op":"add","path":"/metadata/labels","value":{"a":"b"}}]`},
		{"strategic merge patch with a JSON patch body", types.StrategicMergePatchType, `[{"op":"remove","path":"/spec"}]`},
		{"merge patch with a string body", types.MergePatchType, `"x"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestClientset(t, false, pod("ns", "p"))
			_, err := c.Invokes(NewPatchAction(podsGVR, "ns", "p", tc.patchType, []byte(tc.patch)), &corev1.Pod{})
			if err == nil || err.Error() != "invalid JSON document" {
				t.Fatalf("error = %v, want an invalid JSON document error", err)
			}
		})
	}
}
