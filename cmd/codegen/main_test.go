package main

import (
	"bytes"
	"go/format"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/kubeclient/client-go/cmd/codegen/internal/applygen"
	"github.com/kubeclient/client-go/cmd/codegen/internal/clientgen"
	"github.com/kubeclient/client-go/cmd/codegen/internal/clientsetgen"
	"github.com/kubeclient/client-go/cmd/codegen/internal/gofile"
	"github.com/kubeclient/client-go/cmd/codegen/internal/layout"
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

const fixture = "github.com/kubeclient/client-go/cmd/codegen/testdata/apis/example/v1"

// generateFixture runs every generator on the fixture API as a user would
// for a custom resource: JSON wire format, own clientset path.
func generateFixture(t *testing.T) *gofile.Output {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	u, err := model.Load(model.Options{Dir: root, Inputs: []string{fixture}})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	l := layout.Layout{
		Module: "example.com/widgets/generated", OutputDir: t.TempDir(), RuntimePath: "github.com/kubeclient/client-go",
		ClientsetPath: "clientset", ApplyConfigPath: "applyconfiguration",
	}
	out := gofile.NewOutput()
	for name, gen := range map[string]func(*model.Universe, layout.Layout, *gofile.Output) error{
		"clientgen": clientgen.Generate, "clientsetgen": clientsetgen.Generate, "applygen": applygen.Generate,
	} {
		if err := gen(u, l, out); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return out
}

// content returns a generated file with each run of blanks collapsed to one
// space, so expectations do not depend on gofmt's column alignment.
func content(t *testing.T, out *gofile.Output, path string) string {
	t.Helper()
	src := out.Content(path)
	if src == nil {
		t.Fatalf("%s was not generated; have %v", path, out.Paths())
	}
	return blanks.ReplaceAllString(string(src), " ")
}

var blanks = regexp.MustCompile(`[ \t]+`)

func TestGeneratedFilesAreMarkedAndFormatted(t *testing.T) {
	out := generateFixture(t)
	header := regexp.MustCompile(`^// Code generated .* DO NOT EDIT\.\n`)
	for _, p := range out.Paths() {
		src := out.Content(p)
		if !header.Match(src) {
			t.Errorf("%s does not start with the generated-code header", p)
		}
		formatted, err := format.Source(src)
		if err != nil {
			t.Errorf("%s does not parse: %v", p, err)
		} else if !bytes.Equal(formatted, src) {
			t.Errorf("%s is not gofmt-clean", p)
		}
	}
}

func TestTypedClientSurface(t *testing.T) {
	out := generateFixture(t)
	tests := []struct {
		file    string
		want    []string
		notWant []string
	}{
		{
			file: "clientset/typed/example/v1/widget.go",
			want: []string{
				"Widgets(namespace string) WidgetInterface",
				"UpdateStatus(ctx context.Context, widget *examplev1.Widget, opts metav1.UpdateOptions) (*examplev1.Widget, error)",
				"ApplyStatus(ctx context.Context, widget *applyconfigurationexamplev1.WidgetApplyConfiguration",
				"GetScale(ctx context.Context, widgetName string, options metav1.GetOptions) (*autoscalingv1.Scale, error)",
				"ApplyScale(ctx context.Context, widgetName string, scale *applyconfigurationsautoscalingv1.ScaleApplyConfiguration, opts metav1.ApplyOptions) (*autoscalingv1.Scale, error)",
				`"github.com/kubeclient/client-go/applyconfigurations/autoscaling/v1"`,
				"gentype.NewClientWithListAndApply[",
				`SubResource("scale")`,
			},
			// CRD clients speak JSON.
			notWant: []string{"PrefersProtobuf", "UseProtobufAsDefault"},
		},
		{
			file:    "clientset/typed/example/v1/gadget.go",
			want:    []string{"Gadgets() GadgetInterface", "func newGadgets(c *ExampleV1Client) *gadgets"},
			notWant: []string{"UpdateStatus", "ApplyStatus"},
		},
		{
			file:    "clientset/typed/example/v1/review.go",
			want:    []string{"Create(ctx context.Context", "*gentype.Client[*examplev1.Review]"},
			notWant: []string{"List(", "Watch(", "Apply("},
		},
		{
			file:    "clientset/typed/example/v1/policy.go",
			want:    []string{"Policies(namespace string) PolicyInterface", "List(ctx"},
			notWant: []string{"Watch(", "DeleteCollection("},
		},
		{
			file: "clientset/typed/example/v1/example_client.go",
			want: []string{"type ExampleV1Interface interface", `config.APIPath = "/apis"`, "func NewForConfigAndClient(c *rest.Config, h *http.Client) (*ExampleV1Client, error)"},
		},
		{
			file: "clientset/typed/example/v1/generated_expansion.go",
			want: []string{"type WidgetExpansion interface{}", "type ReviewExpansion interface{}"},
		},
		{
			file: "clientset/clientset.go",
			want: []string{"ExampleV1() examplev1.ExampleV1Interface", "Discovery() discovery.DiscoveryInterfaces"},
		},
		{
			file: "clientset/scheme/register.go",
			want: []string{"examplev1.AddToScheme,"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			src := content(t, out, tt.file)
			for _, w := range tt.want {
				if !strings.Contains(src, w) {
					t.Errorf("missing %q in:\n%s", w, src)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(src, w) {
					t.Errorf("unexpected %q", w)
				}
			}
		})
	}
}

func TestApplyConfigurations(t *testing.T) {
	out := generateFixture(t)
	spec := content(t, out, "applyconfiguration/example/v1/widgetspec.go")
	for _, w := range []string{
		"Replicas *int32 `json:\"replicas,omitempty\"`",
		"Mode *examplev1.Mode `json:\"mode,omitempty\"`",
		"Ports []PortApplyConfiguration `json:\"ports,omitempty\"`",
		"Data []byte `json:\"data,omitempty\"`",
		"Target *intstr.IntOrString `json:\"target,omitempty\"`",
		"Ref *ReferenceApplyConfiguration `json:\"ref,omitempty\"`",
		"Parts2 map[string]PartApplyConfiguration `json:\"partsByName,omitempty\"`",
		"InlineApplyConfiguration `json:\"\"`",
		"Nothing *examplev1.Empty `json:\"nothing,omitempty\"`",
		"func (b *WidgetSpecApplyConfiguration) WithPorts(values ...*PortApplyConfiguration) *WidgetSpecApplyConfiguration",
		"func (b *WidgetSpecApplyConfiguration) WithColor(value string) *WidgetSpecApplyConfiguration",
		"func (b *WidgetSpecApplyConfiguration) WithData(values ...byte) *WidgetSpecApplyConfiguration",
	} {
		if !strings.Contains(spec, w) {
			t.Errorf("widgetspec.go lacks %q:\n%s", w, spec)
		}
	}
	if strings.Contains(spec, "Hidden") {
		t.Error(`a json:"-" field got an apply configuration field`)
	}
	if out.Content("applyconfiguration/example/v1/empty.go") != nil {
		t.Error("an empty struct got an apply configuration")
	}
	widget := content(t, out, "applyconfiguration/example/v1/widget.go")
	for _, w := range []string{
		"func Widget(name, namespace string) *WidgetApplyConfiguration",
		"func ExtractWidgetFrom(widget *examplev1.Widget, fieldManager string, subresource string) (*WidgetApplyConfiguration, error)",
		"func ExtractWidgetStatus(",
		"func ExtractWidgetScale(",
		`b.WithAPIVersion("example.kubeclient.dev/v1")`,
		"func (b WidgetApplyConfiguration) IsApplyConfiguration() {}",
		"func (b *WidgetApplyConfiguration) GetName() *string",
	} {
		if !strings.Contains(widget, w) {
			t.Errorf("widget.go lacks %q", w)
		}
	}
	gadget := content(t, out, "applyconfiguration/example/v1/gadget.go")
	if !strings.Contains(gadget, "func Gadget(name string) *GadgetApplyConfiguration") || strings.Contains(gadget, "ExtractGadgetStatus") {
		t.Errorf("gadget.go: want a cluster-scoped constructor and no status extract:\n%s", gadget)
	}
	if out.Content("applyconfiguration/example/v1/review.go") != nil {
		t.Error("a create-only resource got an apply configuration")
	}
	// Types of built-in API packages are referenced from the runtime
	// module, not generated again.
	status := content(t, out, "applyconfiguration/example/v1/widgetstatus.go")
	if !strings.Contains(status, `"github.com/kubeclient/client-go/applyconfigurations/meta/v1"`) || !strings.Contains(status, "[]metav1.ConditionApplyConfiguration") {
		t.Errorf("widgetstatus.go should use the runtime's meta/v1 apply configurations:\n%s", status)
	}
	for _, p := range out.Paths() {
		if strings.HasPrefix(p, "applyconfiguration/meta/") || strings.HasPrefix(p, "applyconfiguration/autoscaling/") {
			t.Errorf("%s was generated for a built-in package", p)
		}
	}
}

func TestApplySchema(t *testing.T) {
	out := generateFixture(t)
	src := string(out.Content("applyconfiguration/internal/internal.go"))
	start := strings.Index(src, "YAMLObject(`")
	end := strings.LastIndex(src, "`)")
	if start < 0 || end < start {
		t.Fatal("schema literal not found")
	}
	yaml := src[start+len("YAMLObject(`") : end]
	parser, err := typed.NewParser(typed.YAMLObject(yaml))
	if err != nil {
		t.Fatalf("the generated schema does not parse: %v", err)
	}
	pt := parser.Type("com.github.kubeclient.client-go.cmd.codegen.testdata.apis.example.v1.Widget")
	obj, err := pt.FromUnstructured(map[string]interface{}{
		"apiVersion": "example.kubeclient.dev/v1", "kind": "Widget",
		"metadata": map[string]interface{}{"name": "w"},
		"spec": map[string]interface{}{
			"ports": []interface{}{map[string]interface{}{"name": "http", "protocol": "TCP", "number": int64(80)}},
			"tags":  []interface{}{"a", "b"},
			"color": "red",
		},
	})
	if err != nil {
		t.Fatalf("a valid Widget does not type-check: %v", err)
	}
	if _, err := obj.ToFieldSet(); err != nil {
		t.Fatalf("field set: %v", err)
	}
	for _, w := range []string{
		"keys:\n          - name\n          - protocol",
		"- name: tags\n      type:\n        list:\n          elementType:\n            scalar: string\n          elementRelationship: associative",
		"- name: labels\n      type:\n        map:\n          elementType:\n            scalar: string\n          elementRelationship: atomic",
	} {
		if !strings.Contains(yaml, w) {
			t.Errorf("schema lacks:\n%s", w)
		}
	}
}

func TestWriteKeepsHandWrittenFiles(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "pkg")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(pkg, "stale.go")
	hand := filepath.Join(pkg, "hand_expansion.go")
	os.WriteFile(stale, []byte(gofile.Header+"\n\npackage pkg\n"), 0o644)
	os.WriteFile(hand, []byte("package pkg\n"), 0o644)
	out := gofile.NewOutput()
	f := gofile.New("pkg")
	f.Printf("// X is generated.\nvar X = 1\n")
	if err := out.Add("pkg", "x.go", f); err != nil {
		t.Fatal(err)
	}
	if err := write(out, dir, true); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Error("stale generated file was not removed")
	}
	if _, err := os.Stat(hand); err != nil {
		t.Error("hand-written file was removed")
	}
	if _, err := os.Stat(filepath.Join(pkg, "x.go")); err != nil {
		t.Error("generated file was not written")
	}
}
