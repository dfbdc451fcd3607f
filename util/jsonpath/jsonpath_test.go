package jsonpath

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

func loadJSON(t *testing.T, path string, into interface{}) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, into); err != nil {
		t.Fatal(err)
	}
}

type execCase struct {
	name, template string
	allowMissing   bool
	jsonOutput     bool
	want           string
	wantErr        string
}

func runCases(t *testing.T, data interface{}, cases []execCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			j := New(tc.name).AllowMissingKeys(tc.allowMissing)
			j.EnableJSONOutput(tc.jsonOutput)
			var out strings.Builder
			err := j.Parse(tc.template)
			if err == nil {
				err = j.Execute(&out, data)
			}
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if out.String() != tc.want {
				t.Errorf("output = %q, want %q", out.String(), tc.want)
			}
		})
	}
}

func TestExecuteUnstructured(t *testing.T) {
	var data interface{}
	loadJSON(t, "testdata/list.json", &data)
	runCases(t, data, []execCase{
		{name: "field", template: "{.kind}", want: "List"},
		{name: "text around", template: "kind is {.kind} and {.apiVersion}", want: "kind is List and v1"},
		{name: "root dollar", template: "{$.kind}", want: "List"},
		{name: "wildcard", template: "{.items[*].metadata.name}", want: "a b c"},
		{name: "index", template: "{.items[0].metadata.name}", want: "a"},
		{name: "negative index", template: "{.items[-1].metadata.name}", want: "c"},
		{name: "slice", template: "{.items[0:2].metadata.name}", want: "a b"},
		{name: "open slice", template: "{.items[1:].metadata.name}", want: "b c"},
		{name: "negative end", template: "{.items[:-1].metadata.name}", want: "a b"},
		{name: "step", template: "{.items[::2].metadata.name}", want: "a c"},
		{name: "out of range", template: "{.items[5]}", wantErr: "array index out of bounds: index 5, length 3"},
		{name: "filter string", template: `{.items[?(@.status.phase=="Running")].metadata.name}`, want: "a c"},
		{name: "filter single quotes", template: `{.items[?(@.metadata.name=='b')].status.phase}`, want: "Pending"},
		{name: "filter float", template: `{.items[?(@.spec.replicas<2.5)].metadata.name}`, allowMissing: true, want: "b"},
		{name: "filter int against JSON number", template: `{.items[?(@.spec.replicas>1)].metadata.name}`, allowMissing: true, wantErr: "incompatible types for comparison"},
		{name: "filter float against JSON number", template: `{.items[?(@.spec.replicas>1.0)].metadata.name}`, allowMissing: true, want: "a"},
		{name: "filter missing key", template: `{.items[?(@.spec.replicas>1.0)].metadata.name}`, wantErr: "replicas is not found"},
		{name: "filter exists", template: "{.items[?(@.spec.replicas)].metadata.name}", want: "a b"},
		{name: "filter unknown operator", template: `{.items[?(@.spec.replicas<>1)].metadata.name}`, allowMissing: true, wantErr: "unrecognized filter operator <>"},
		{name: "range", template: `{range .items[*]}{.metadata.name}{"\t"}{.status.phase}{"\n"}{end}`, want: "a\tRunning\nb\tPending\nc\tRunning\n"},
		{name: "range brackets", template: "{range .items[*]}[{.metadata.name}]{end}", want: "[a][b][c]"},
		{name: "recursive", template: "{..name}", want: "a c1 c2 b c3 c"},
		{name: "union of paths", template: "{.items[*]['metadata.name', 'status.phase']}", want: "a b c Running Pending Running"},
		{name: "map as JSON", template: "{.items[0].metadata.labels}", want: `{"app":"web","app.kubernetes.io/name":"webapp"}`},
		{name: "escaped dots in brackets", template: `{.items[0].metadata.labels['app\.kubernetes\.io/name']}`, want: "webapp"},
		{name: "escaped dots", template: `{.items[0].metadata.labels.app\.kubernetes\.io/name}`, want: "webapp"},
		{name: "nested wildcard", template: "{.items[*].spec.containers[*].image}", want: "nginx:1 busybox postgres"},
		{name: "number", template: "{.items[0].spec.replicas}", want: "3"},
		{name: "bool", template: "{.items[1].spec.enabled}", want: "true"},
		{name: "null", template: "{.items[0].metadata.nullable}", want: "null"},
		{name: "missing", template: "{.nope}", wantErr: "nope is not found"},
		{name: "missing allowed", template: "{.nope}", allowMissing: true, want: ""},
		{name: "dot alone is a missing key", template: "{.}", wantErr: " is not found"},
		{name: "at is the root", template: "{@.kind}", want: "List"},
		{name: "json output", template: "{.items[*].metadata.name}", jsonOutput: true, want: "[\n    \"a\",\n    \"b\",\n    \"c\"\n]\n"},
		{name: "json output missing", template: "{.nope}", allowMissing: true, jsonOutput: true, want: "[]\n"},
		{name: "end without range", template: "{end}", wantErr: "not in range, nothing to end"},
		{name: "unknown identifier", template: "{foo}", wantErr: "unrecognized identifier foo"},
		{name: "unclosed", template: "{.items[0].metadata.name", wantErr: "unclosed action"},
		{name: "unterminated array", template: "{.items[0}", wantErr: "unterminated array"},
		{name: "bad index", template: "{.items[a]}", wantErr: "invalid array index a"},
		{name: "double recursion", template: "{....a}", wantErr: "invalid multiple recursive descent"},
		{name: "zero step", template: "{.items[0:2:0]}", wantErr: "step must be > 0"},
		{name: "not a list", template: "{.kind[0]}", wantErr: "string is not array or slice"},
	})
}

func TestExecuteTypedPods(t *testing.T) {
	var pods corev1.PodList
	loadJSON(t, "testdata/podlist.json", &pods)
	runCases(t, &pods, []execCase{
		{name: "names", template: "{.items[*].metadata.name}", want: "web-1 db-1"},
		{name: "embedded list meta", template: "{.metadata.resourceVersion}", want: "12"},
		{name: "time struct is JSON", template: "{.items[0].metadata.creationTimestamp}", want: `"2026-01-02T03:04:05Z"`},
		{name: "quantity struct is JSON", template: "{.items[0].spec.containers[0].resources.limits.cpu}", want: `"500m"`},
		{name: "resource list", template: "{.items[0].spec.containers[0].resources.limits}", want: `{"cpu":"500m","memory":"128Mi"}`},
		{name: "int32", template: "{.items[0].spec.containers[0].ports[0].containerPort}", want: "80"},
		{name: "filter", template: `{.items[?(@.status.phase=="Running")].status.podIP}`, want: "10.0.0.1"},
		{name: "kubectl table", template: `{range .items[*]}{.metadata.namespace}/{.metadata.name} {.status.conditions[?(@.type=="Ready")].status}{"\n"}{end}`, want: "default/web-1 True\nprod/db-1 \n"},
		{name: "filter on index out of range", template: "{.items[?(@.status.containerStatuses[0].restartCount>1)].metadata.name}", wantErr: "array index out of bounds: index 0, length 0"},
		{name: "empty string field", template: "{.items[1].spec.nodeName}", want: ""},
		{name: "nil map", template: "{.items[1].metadata.labels}", want: "null"},
		{name: "nil pointer", template: "{.items[0].metadata.deletionTimestamp}", want: "<nil>"},
		{name: "nil pointer as JSON", template: "{.items[0].spec.terminationGracePeriodSeconds}", jsonOutput: true, want: "[\n    null\n]\n"},
		{name: "recursive through structs", template: "{..image}", want: "nginx nginx postgres"},
		{name: "bool", template: "{.items[0].status.containerStatuses[0].ready}", want: "true"},
	})
}

func TestExecuteNodes(t *testing.T) {
	node := corev1.Node{}
	node.Name = "node-1"
	node.Status.Addresses = []corev1.NodeAddress{
		{Type: corev1.NodeInternalIP, Address: "10.1.2.3"},
		{Type: corev1.NodeHostName, Address: "node-1.local"},
	}
	list := corev1.NodeList{Items: []corev1.Node{node}}
	runCases(t, list, []execCase{
		{name: "internal ip", template: `{.items[*].status.addresses[?(@.type=="InternalIP")].address}`, want: "10.1.2.3"},
		{name: "not equal", template: `{.items[0].status.addresses[?(@.type!="InternalIP")].address}`, want: "node-1.local"},
		{name: "go field name fallback", template: "{.Items[0].ObjectMeta.Name}", want: "node-1"},
		{name: "range over names", template: `{range .items[*]}{.metadata.name}{","}{end}`, want: "node-1,"},
	})
}

func TestIncompleteTemplate(t *testing.T) {
	j := New("empty")
	if err := j.Execute(&strings.Builder{}, nil); err == nil || err.Error() != "empty is an incomplete jsonpath template" {
		t.Fatalf("error = %v", err)
	}
}

func TestFindResults(t *testing.T) {
	j := New("t")
	if err := j.Parse(`x{.a[*]}`); err != nil {
		t.Fatal(err)
	}
	results, err := j.FindResults(map[string]interface{}{"a": []interface{}{1, "two"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 2 || len(results[0]) != 1 || results[0][0].Interface() != "x" || len(results[1]) != 2 {
		t.Fatalf("unexpected results %v", results)
	}
	var out strings.Builder
	if err := j.PrintResults(&out, results[1]); err != nil || out.String() != "1 two" {
		t.Fatalf("PrintResults = %q, %v", out.String(), err)
	}
	if err := j.PrintResults(&out, []reflect.Value{reflect.ValueOf(func() {})}); err == nil {
		t.Fatal("printing a func should fail")
	}
}

func TestParseTree(t *testing.T) {
	p, err := Parse("tree", `a{.b[1:3] ..c[*] [?(@.d>=2)] ['e','f'] "g" 1.5 true}`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if len(p.Root.Nodes) != 2 {
		t.Fatalf("root has %d nodes", len(p.Root.Nodes))
	}
	got = append(got, p.Root.Nodes[0].String())
	for _, n := range p.Root.Nodes[1].(*ListNode).Nodes {
		got = append(got, n.String())
	}
	want := []string{
		"NodeText: a",
		"NodeField: b",
		"NodeArray: [{1 true false} {3 true false} {0 false false}]",
		"NodeRecursive",
		"NodeField: c",
		"NodeArray: [{0 false false} {0 false false} {0 false false}]",
		"NodeFilter: NodeList >= NodeList",
		"NodeUnion",
		"NodeText: g",
		"NodeFloat: 1.500000",
		"NodeBool: true",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("tree:\n%q\nwant\n%q", got, want)
	}
	idx := p.Root.Nodes[1].(*ListNode).Nodes
	if f := idx[5].(*FilterNode); f.Right.Nodes[0].(*IntNode).Value != 2 {
		t.Errorf("filter right operand = %v", f.Right.Nodes[0])
	}
	if NodeIdentifier.String() != "NodeIdentifier" || NodeWildcard.Type() != NodeWildcard {
		t.Error("NodeType naming is wrong")
	}
	if _, err := Parse("bad", "{.a[}"); err == nil {
		t.Error("expected a syntax error")
	}
}

func TestUnquoteExtend(t *testing.T) {
	cases := []struct {
		in, want string
		err      bool
	}{
		{in: `"a\tb"`, want: "a\tb"},
		{in: `'a"b'`, want: `a"b`},
		{in: `'it\'s'`, want: "it's"},
		{in: `'\n'`, want: "\n"},
		{in: `'abc`, err: true},
		{in: `x`, err: true},
		{in: `'a'b'`, err: true},
	}
	for _, tc := range cases {
		got, err := UnquoteExtend(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("UnquoteExtend(%s) = %q, %v", tc.in, got, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"{.items[*].metadata.name}", `{range .items[*]}{.a}{"\n"}{end}`, "{..a[?(@.b=='c')]}",
		"{.a['b.c', 'd']}", "{.a[-1:]}", "{", "{[", "{[?(", `{"`, "{'\\", "{.a[1:2:3:4]}", "{-}", "{1.2.3}",
	} {
		f.Add(seed)
	}
	data := map[string]interface{}{"items": []interface{}{map[string]interface{}{"a": 1.0, "b": "c"}}}
	f.Fuzz(func(t *testing.T, text string) {
		p, err := Parse("fuzz", text)
		if err != nil {
			return
		}
		if p.Root == nil {
			t.Fatal("nil root without an error")
		}
		j := New("fuzz").AllowMissingKeys(true)
		if err := j.Parse(text); err != nil {
			t.Fatalf("Parse succeeded once and failed once: %v", err)
		}
		_ = j.Execute(&strings.Builder{}, data)
	})
}
