package fakegen

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kubeclient/client-go/cmd/codegen/internal/gofile"
	"github.com/kubeclient/client-go/cmd/codegen/internal/layout"
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

const fixture = "github.com/kubeclient/client-go/cmd/codegen/testdata/apis/example/v1"

var blanks = regexp.MustCompile(`[ \t]+`)

// generate runs the fake generator on the codegen fixture, laid out as a
// custom resource project would be.
func generate(t *testing.T) (*gofile.Output, *model.Universe) {
	t.Helper()
	root, err := filepath.Abs("../../../..")
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
	if err := Generate(u, l, out); err != nil {
		t.Fatalf("Generate: %v", err)
	}
	return out, u
}

func file(t *testing.T, out *gofile.Output, p string) string {
	t.Helper()
	src := out.Content(p)
	if src == nil {
		t.Fatalf("%s not generated; have %v", p, out.Paths())
	}
	if !gofile.IsGenerated(src) {
		t.Errorf("%s lacks the generated header", p)
	}
	return blanks.ReplaceAllString(string(src), " ")
}

func TestGeneratedFiles(t *testing.T) {
	out, _ := generate(t)
	want := []string{
		"clientset/fake/clientset_generated.go",
		"clientset/fake/doc.go",
		"clientset/fake/register.go",
		"clientset/typed/example/v1/fake/doc.go",
		"clientset/typed/example/v1/fake/fake_example_client.go",
		"clientset/typed/example/v1/fake/fake_gadget.go",
		"clientset/typed/example/v1/fake/fake_widget.go",
	}
	have := map[string]bool{}
	for _, p := range out.Paths() {
		have[p] = true
	}
	for _, p := range want {
		if !have[p] {
			t.Errorf("missing %s; generated %v", p, out.Paths())
		}
	}
}

func TestGeneratedContent(t *testing.T) {
	out, _ := generate(t)
	tests := []struct {
		path string
		want []string
	}{
		{"clientset/typed/example/v1/fake/fake_example_client.go", []string{
			"type FakeExampleV1 struct {\n\t*testing.Fake\n}",
			"func (c *FakeExampleV1) Widgets(namespace string) examplev1.WidgetInterface {\n\treturn newFakeWidgets(c, namespace)",
			"func (c *FakeExampleV1) Gadgets() examplev1.GadgetInterface {\n\treturn newFakeGadgets(c)",
			"func (c *FakeExampleV1) RESTClient() rest.Interface",
		}},
		{"clientset/typed/example/v1/fake/fake_widget.go", []string{
			"*gentype.FakeClientWithListAndApply[*",
			`.SchemeGroupVersion.WithResource("widgets")`,
			`.SchemeGroupVersion.WithKind("Widget")`,
			"func(dst, src *",
			"gentype.ToPointerSlice(list.Items)",
			`func (c *fakeWidgets) GetScale(ctx context.Context, name string, options metav1.GetOptions) (*autoscalingv1.Scale, error)`,
			`testing.NewGetSubresourceActionWithOptions(c.Resource(), c.Namespace(), "scale", name, options)`,
			`func (c *fakeWidgets) ApplyScale(ctx context.Context, name string, in *`,
			`types.ApplyPatchType, data, opts.ToPatchOptions(), "scale")`,
		}},
		{"clientset/typed/example/v1/fake/fake_gadget.go", []string{
			"fake.Fake,\n\t\t\t\"\",",
		}},
		{"clientset/fake/clientset_generated.go", []string{
			"func NewClientset(objects ...runtime.Object) *Clientset",
			"func NewSimpleClientset(objects ...runtime.Object) *Clientset",
			"func NewServerLikeClientset(objects ...runtime.Object) *Clientset",
			"testing.NewServerLikeFieldManagedObjectTracker(scheme, codecs.UniversalDecoder(), applyconfiguration.NewTypeConverter(scheme))",
			"testing.NewFieldManagedObjectTracker(scheme, codecs.UniversalDecoder(), applyconfiguration.NewTypeConverter(scheme))",
			"func (c *Clientset) ExampleV1() examplev1.ExampleV1Interface {\n\treturn &examplev1fake.FakeExampleV1{Fake: &c.Fake}",
			"func (c *Clientset) Tracker() testing.ObjectTracker",
			"func (c *Clientset) IsWatchListSemanticsUnSupported() bool",
		}},
		{"clientset/fake/register.go", []string{
			"var AddToScheme = localSchemeBuilder.AddToScheme",
			"examplev1.AddToScheme,",
		}},
	}
	for _, tc := range tests {
		src := file(t, out, tc.path)
		for _, w := range tc.want {
			w = blanks.ReplaceAllString(w, " ")
			if !strings.Contains(src, w) {
				t.Errorf("%s lacks %q\n---\n%s", tc.path, w, src)
			}
		}
	}
}

func TestUnsupportedExtendedVerb(t *testing.T) {
	_, u := generate(t)
	gv := u.GroupVersions()[0]
	var widget *model.Resource
	for _, r := range gv.Resources {
		if r.Kind == "Widget" {
			widget = r
		}
	}
	if widget == nil || len(widget.Methods) == 0 {
		t.Fatal("fixture has no Widget with extended methods")
	}
	bad := *widget.Methods[0]
	bad.Verb = "proxy"
	widget.Methods = append(widget.Methods, &bad)
	err := Generate(u, layout.Layout{Module: "example.com/x", ClientsetPath: "clientset", ApplyConfigPath: "ac", RuntimePath: "github.com/kubeclient/client-go"}, gofile.NewOutput())
	if err == nil || !strings.Contains(err.Error(), `verb "proxy"`) || !strings.Contains(err.Error(), "Widget") {
		t.Errorf("Generate error = %v, want one naming Widget and the verb", err)
	}
}
