package jsonpath

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
)

// podWithRequests is a pod of kubectl's sorting tests: one container whose
// requests hold the given quantities.
func podWithRequests(requests map[corev1.ResourceName]string) *corev1.Pod {
	list := corev1.ResourceList{}
	for name, q := range requests {
		list[name] = resource.MustParse(q)
	}
	return &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Resources: corev1.ResourceRequirements{Requests: list}}}}}
}

func unstructuredOf(t *testing.T, obj runtime.Object) map[string]interface{} {
	t.Helper()
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		t.Fatal(err)
	}
	return content
}

// describe renders FindResults' output as "[v v][v]", each value as JSON.
func describe(t *testing.T, results [][]reflect.Value) string {
	t.Helper()
	var b strings.Builder
	for _, set := range results {
		b.WriteString("[")
		for i, v := range set {
			if i > 0 {
				b.WriteString(" ")
			}
			text, err := json.Marshal(v.Interface())
			if err != nil {
				t.Fatal(err)
			}
			b.Write(text)
		}
		b.WriteString("]")
	}
	return b.String()
}

// The expected values below are client-go's: each case was run through
// client-go v0.37.2's jsonpath with the same template and data.
func TestFindResultsAsClientGo(t *testing.T) {
	var list interface{}
	loadJSON(t, "testdata/list.json", &list)
	withCPU := podWithRequests(map[corev1.ResourceName]string{"cpu": "500m"})
	withoutCPU := podWithRequests(map[corev1.ResourceName]string{"memory": "1Gi"})
	noContainers := &corev1.Pod{}
	mixed := []interface{}{
		map[string]interface{}{"a": 1.0, "b": "x"},
		map[string]interface{}{"a": 2.0},
		map[string]interface{}{"b": "y"},
		nil,
	}
	nested := map[string]interface{}{"items": []interface{}{
		map[string]interface{}{"n": []interface{}{1.0, 2.0, 3.0}},
		map[string]interface{}{"n": []interface{}{}},
		map[string]interface{}{"n": []interface{}{4.0}},
	}}

	tests := []struct {
		name         string
		template     string
		data         interface{}
		allowMissing bool
		want         string // FindResults rendered by describe
		wantErr      string
	}{
		// kubectl's sorter: {.spec.containers[].resources.requests.cpu} with
		// missing keys allowed, on typed and unstructured pods.
		{name: "empty brackets index the first element", template: "{.spec.containers[].resources.requests.cpu}", data: withCPU, allowMissing: true, want: `["500m"]`},
		{name: "empty brackets, missing key allowed", template: "{.spec.containers[].resources.requests.cpu}", data: withoutCPU, allowMissing: true, want: `[]`},
		{name: "empty brackets, unstructured", template: "{.spec.containers[].resources.requests.cpu}", data: unstructuredOf(t, withCPU), allowMissing: true, want: `["500m"]`},
		{name: "empty brackets, unstructured missing key", template: "{.spec.containers[].resources.requests.memory}", data: unstructuredOf(t, withCPU), allowMissing: true, want: `[]`},
		{name: "missing key not allowed", template: "{.spec.containers[].resources.requests.cpu}", data: withoutCPU, wantErr: "cpu is not found"},
		{name: "index into an empty list", template: "{.spec.containers[0].name}", data: noContainers, allowMissing: true, wantErr: "array index out of bounds: index 0, length 0"},

		// Missing fields.
		{name: "missing field", template: "{.nope}", data: list, wantErr: "nope is not found"},
		{name: "missing field allowed", template: "{.nope}", data: list, allowMissing: true, want: `[]`},
		{name: "below a missing field", template: "{.nope.deeper}", data: list, allowMissing: true, want: `[]`},
		{name: "index below a missing field", template: "{.nope[0]}", data: list, allowMissing: true, want: `[]`},
		{name: "field of some elements", template: "{[*].b}", data: mixed, want: `["x" "y"]`},
		{name: "field of no element", template: "{[*].c}", data: mixed, wantErr: "c is not found"},
		{name: "literal once per value", template: "{.nope 1}", data: list, allowMissing: true, want: `[]`},

		// Indexes and slices.
		{name: "negative index", template: "{.items[-1].metadata.name}", data: list, want: `["c"]`},
		{name: "negative index too far", template: "{.items[-4].metadata.name}", data: list, wantErr: "array index out of bounds: index -1, length 3"},
		{name: "empty slice", template: "{.items[1:1]}", data: list, want: `[]`},
		{name: "reversed slice", template: "{.items[2:1]}", data: list, wantErr: "starting index 2 is greater than ending index 1"},
		{name: "index of every list", template: "{.items[*].n[-1]}", data: map[string]interface{}{"items": []interface{}{map[string]interface{}{"n": []interface{}{1.0, 2.0}}, map[string]interface{}{"n": []interface{}{3.0}}}}, want: `[2 3]`},
		{name: "empty selection stops the step", template: "{.items[*].n[0:0]}", data: nested, want: `[]`},
		{name: "index out of bounds in a later list", template: "{.items[*].n[0]}", data: nested, wantErr: "array index out of bounds: index 0, length 0"},
		{name: "zero step", template: "{.items[::0]}", data: list, wantErr: "step must be > 0"},
		{name: "wildcard over a string", template: "{.kind.*}", data: list, want: `[76 105 115 116]`},

		// Ranges.
		{name: "range", template: "{range .items[*]}{.n[*]};{end}", data: nested, want: `[1 2 3][";"][][";"][4][";"]`},
		{name: "range over nothing still checks its body", template: "{range .items[*]}{.n}{end}", data: map[string]interface{}{"items": []interface{}{}}, wantErr: "n is not found"},
		{name: "range over nothing, missing keys allowed", template: "{range .items[*]}{.n}{end}", data: map[string]interface{}{"items": []interface{}{}}, allowMissing: true, want: ``},
		{name: "nested range over nothing", template: "{range .items[*]}{range .n[*]}{.x}{end}{end}", data: nested, wantErr: "x is not found"},
		{name: "unclosed range body runs again at the top", template: "{range .items[*]}{.n}", data: nested, wantErr: "n is not found"},
		{name: "end without range", template: "{.items}{end}", data: nested, wantErr: "not in range, nothing to end"},

		// Filters.
		{name: "filter number literal is an int", template: "{[?(@.a>1)].a}", data: mixed, allowMissing: true, wantErr: "incompatible types for comparison"},
		{name: "filter with float literal", template: "{[?(@.a>1.0)].a}", data: mixed, allowMissing: true, want: `[2]`},
		{name: "filter on strings", template: "{[?(@.b<'y')].b}", data: mixed, allowMissing: true, want: `["x"]`},
		{name: "filter string against number", template: "{[?(@.b==1)].b}", data: mixed, allowMissing: true, wantErr: "incompatible types for comparison"},
		{name: "filter on a struct", template: `{.spec.containers[?(@.resources.requests.cpu=="500m")]}`, data: withCPU, wantErr: "invalid type for comparison"},
		{name: "filter orders booleans", template: "{.items[?(@.spec.enabled<true)]}", data: list, allowMissing: true, wantErr: "invalid type for comparison"},
		{name: "filter missing key", template: "{[?(@.a==1.0)].b}", data: mixed, wantErr: "a is not found"},
		{name: "exists", template: "{[?(@.b)].b}", data: mixed, want: `["x" "y"]`},
		{name: "exists counts what a failed index leaves", template: "{.items[?(@.n[5])].n}", data: nested, want: `[[1,2,3] [] [4]]`},
		{name: "filter on nil", template: "{.nope[?(@.a)]}", data: map[string]interface{}{"nope": nil}, wantErr: "<nil> is not array or slice and cannot be filtered"},
		{name: "filter with two values", template: "{.items[?(@.n[*]==1.0)]}", data: nested, wantErr: "can only compare one element at a time"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			j := New(tc.name).AllowMissingKeys(tc.allowMissing)
			if err := j.Parse(tc.template); err != nil {
				t.Fatalf("Parse: %v", err)
			}
			results, err := j.FindResults(tc.data)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("FindResults: %v", err)
			}
			if got := describe(t, results); got != tc.want {
				t.Errorf("results = %s, want %s", got, tc.want)
			}
		})
	}
}

// The index grammar is client-go's: up to three optional integers, no
// spaces, empty brackets meaning the first element.
func TestParseIndex(t *testing.T) {
	tests := []struct {
		text    string
		params  [3]ParamsEntry
		wantErr string
	}{
		{text: "{[]}", params: [3]ParamsEntry{{}, {Value: 1, Known: true, Derived: true}, {}}},
		{text: "{[2]}", params: [3]ParamsEntry{{Value: 2, Known: true}, {Value: 3, Known: true, Derived: true}, {}}},
		{text: "{[-1:]}", params: [3]ParamsEntry{{Value: -1, Known: true}, {}, {}}},
		{text: "{[::2]}", params: [3]ParamsEntry{{}, {}, {Value: 2, Known: true}}},
		{text: "{[*]}", params: [3]ParamsEntry{{}, {}, {}}},
		{text: "{[ 0 ]}", wantErr: "invalid array index  0 "},
		{text: "{[1-2]}", wantErr: "invalid array index 1-2"},
		{text: "{[+1]}", wantErr: "invalid array index +1"},
		{text: "{[-]}", wantErr: "array index - is not a number"},
		{text: "{[1:2:3:4]}", wantErr: "invalid array index 1:2:3:4"},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			p, err := Parse("index", tc.text)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			arr, ok := p.Root.Nodes[0].(*ListNode).Nodes[0].(*ArrayNode)
			if !ok {
				t.Fatalf("parsed %v, want an array node", p.Root.Nodes[0])
			}
			if arr.Params != tc.params {
				t.Errorf("params = %+v, want %+v", arr.Params, tc.params)
			}
		})
	}
}

func TestCompare(t *testing.T) {
	type c struct {
		op      string
		l, r    interface{}
		want    bool
		wantErr string
	}
	var nilPtr *int
	tests := []c{
		{op: "==", l: 1, r: 1, want: true},
		{op: "<", l: int8(-1), r: uint(0), want: true},
		{op: ">", l: uint(3), r: -1, want: true},
		{op: "==", l: -1, r: uint64(1<<63 + 1), want: false},
		{op: "<=", l: 1.5, r: 1.5, want: true},
		{op: ">=", l: "b", r: "a", want: true},
		{op: "!=", l: true, r: false, want: true},
		{op: "==", l: complex(1, 1), r: complex(1, 1), want: true},
		{op: "<", l: true, r: false, wantErr: "invalid type for comparison"},
		{op: ">", l: complex(1, 0), r: complex(0, 0), wantErr: "invalid type for comparison"},
		{op: "==", l: 1, r: 1.0, wantErr: "incompatible types for comparison"},
		{op: "==", l: "1", r: 1, wantErr: "incompatible types for comparison"},
		{op: "==", l: nilPtr, r: 1, wantErr: "invalid type for comparison"},
		{op: "==", l: nil, r: nil, wantErr: "invalid type for comparison"},
		{op: "=~", l: 1, r: 1, wantErr: "unrecognized filter operator =~"},
		{op: "<>", l: 10.5, r: 10, wantErr: "unrecognized filter operator <>"},
		{op: "<>", l: "a", r: 1, wantErr: "unrecognized filter operator <>"},
		{op: "<>", l: nil, r: nil, wantErr: "unrecognized filter operator <>"},
		{op: "<>", l: true, r: false, wantErr: "unrecognized filter operator <>"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%v %s %v", tc.l, tc.op, tc.r), func(t *testing.T) {
			var iface []interface{}
			iface = append(iface, tc.l, tc.r)
			got, err := compare(tc.op, reflect.ValueOf(iface).Index(0), reflect.ValueOf(iface).Index(1))
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("compare = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}
