package informergen

import (
	"bytes"
	"go/format"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kubeclient/client-go/cmd/codegen/internal/gofile"
	"github.com/kubeclient/client-go/cmd/codegen/internal/layout"
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

const fixture = "github.com/kubeclient/client-go/cmd/codegen/testdata/apis/example/v1"

func generate(t *testing.T) *gofile.Output {
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
		Module: "example.com/widgets/generated", OutputDir: t.TempDir(),
		RuntimePath: "github.com/kubeclient/client-go", ClientsetPath: "clientset/versioned",
		InformersPath: "informers/externalversions", ListersPath: "listers",
	}
	out := gofile.NewOutput()
	if err := Generate(u, l, out); err != nil {
		t.Fatalf("Generate: %v", err)
	}
	return out
}

var blanks = regexp.MustCompile(`[ \t\n]+`)

func content(t *testing.T, out *gofile.Output, p string) string {
	t.Helper()
	src := out.Content(p)
	if src == nil {
		t.Fatalf("%s was not generated; have %v", p, out.Paths())
	}
	return blanks.ReplaceAllString(string(src), " ")
}

func TestGeneratedInformers(t *testing.T) {
	out := generate(t)
	tests := []struct {
		file    string
		want    []string
		notWant []string
	}{
		{
			file: "informers/externalversions/example/v1/widget.go",
			want: []string{
				"type WidgetInformer interface { Informer() cache.SharedIndexInformer Lister() listersexamplev1.WidgetLister }",
				"type TypedWidgetInformer interface",
				"TypedInformer() WidgetIndexInformer",
				"type WidgetIndexInformer cache.TypedSharedIndexInformer[*examplev1.Widget]",
				"type WidgetHandlerFuncs = cache.TypedResourceEventHandlerFuncs[*examplev1.Widget]",
				"type DeletedWidget = cache.DeletedObject[*examplev1.Widget]",
				"func NewWidgetInformer(client versioned.Interface, namespace string, resyncPeriod time.Duration, indexers cache.Indexers) cache.SharedIndexInformer",
				"func NewFilteredWidgetInformer(client versioned.Interface, namespace string, resyncPeriod time.Duration, indexers cache.Indexers, tweakListOptions internalinterfaces.TweakListOptionsFunc) cache.SharedIndexInformer",
				"func NewTypedWidgetInformerWithOptions(client versioned.Interface, namespace string, options internalinterfaces.InformerOptions) WidgetIndexInformer",
				"client.ExampleV1().Widgets(namespace).List(ctx, opts)",
				"client.ExampleV1().Widgets(namespace).Watch(ctx, opts)",
				"ListWithContextFunc: listObjects",
				`schema.GroupVersionResource{Group: "example.kubeclient.dev", Version: "v1", Resource: "widgets"}`,
				"cache.ToListWatcherWithWatchListSemantics(lw, client)",
				"func ToTypedWidgetInformer(informer WidgetInformer) TypedWidgetInformer",
				"func ToWidgetIndexInformer(informer cache.SharedIndexInformer) WidgetIndexInformer",
				`"example.com/widgets/generated/listers/example/v1"`,
				`"example.com/widgets/generated/clientset/versioned"`,
			},
		},
		{
			file: "informers/externalversions/example/v1/gadget.go",
			want: []string{
				"func NewGadgetInformer(client versioned.Interface, resyncPeriod time.Duration, indexers cache.Indexers) cache.SharedIndexInformer",
				"client.ExampleV1().Gadgets().List(ctx, opts)",
			},
			notWant: []string{"namespace string,", "(namespace)"},
		},
		{
			file:    "informers/externalversions/example/v1/interface.go",
			want:    []string{"Widgets() TypedWidgetInformer", "Gadgets() TypedGadgetInformer", "func New(f internalinterfaces.SharedInformerFactory, namespace string, tweakListOptions internalinterfaces.TweakListOptionsFunc) Interface"},
			notWant: []string{"Policies", "Reviews"},
		},
		{
			file: "informers/externalversions/example/interface.go",
			want: []string{"V1() examplev1.Interface", "return examplev1.New(g.factory, g.namespace, g.tweakListOptions)"},
		},
		{
			file: "informers/externalversions/factory.go",
			want: []string{
				"package externalversions",
				"type SharedInformerOption func(*sharedInformerFactory) *sharedInformerFactory",
				"func NewSharedInformerFactoryWithOptions(client versioned.Interface, defaultResync time.Duration, options ...SharedInformerOption) SharedInformerFactory",
				"Example() example.Interface",
				"func (f *sharedInformerFactory) Example() example.Interface",
				"WaitForCacheSyncWithContext(ctx context.Context) cache.SyncResult",
			},
		},
		{
			file: "informers/externalversions/generic.go",
			want: []string{
				`case schema.GroupVersionResource{Group: "example.kubeclient.dev", Version: "v1", Resource: "widgets"}: informer = f.Example().V1().Widgets().Informer()`,
				`case schema.GroupVersionResource{Group: "example.kubeclient.dev", Version: "v1", Resource: "gadgets"}:`,
				`fmt.Errorf("no informer found for %v", gvr)`,
			},
			notWant: []string{"policies", "reviews"},
		},
		{
			file: "informers/externalversions/internalinterfaces/factory_interfaces.go",
			want: []string{
				"type NewInformerFunc func(versioned.Interface, time.Duration) cache.SharedIndexInformer",
				"type TweakListOptionsFunc func(*metav1.ListOptions)",
				"InformerName() *cache.InformerName",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			src := content(t, out, tt.file)
			for _, w := range tt.want {
				if !strings.Contains(src, w) {
					t.Errorf("missing %q in:\n%s", w, out.Content(tt.file))
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(src, w) {
					t.Errorf("unexpected %q in:\n%s", w, out.Content(tt.file))
				}
			}
		})
	}
	for _, p := range []string{"informers/externalversions/example/v1/policy.go", "informers/externalversions/example/v1/review.go"} {
		if out.Content(p) != nil {
			t.Errorf("%s generated for a resource without list and watch", p)
		}
	}
	for _, p := range out.Paths() {
		src := out.Content(p)
		if !gofile.IsGenerated(src) {
			t.Errorf("%s lacks the generated-code header", p)
		}
		if formatted, err := format.Source(src); err != nil || !bytes.Equal(formatted, src) {
			t.Errorf("%s is not gofmt-clean (err %v)", p, err)
		}
	}
}

func TestInformable(t *testing.T) {
	tests := []struct {
		name  string
		tags  model.Tags
		verbs []string
		want  bool
	}{
		{name: "all verbs", verbs: model.AllVerbs, want: true},
		{name: "list and watch", verbs: []string{model.VerbList, model.VerbWatch}, want: true},
		{name: "no watch", verbs: []string{model.VerbGet, model.VerbList}, want: false},
		{name: "noVerbs", tags: model.Tags{"genclient:noVerbs": {""}}, want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			verbs := model.VerbSet{}
			for _, v := range tt.verbs {
				verbs[v] = true
			}
			r := &model.Resource{Type: &model.Type{Tags: tt.tags}, Verbs: verbs}
			if got := Informable(r); got != tt.want {
				t.Errorf("Informable = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestNoInformableResourceGeneratesNothing(t *testing.T) {
	g := &model.Group{Name: "x.example", GoName: "X", PackageName: "x"}
	gv := &model.GroupVersion{Group: g, Version: "v1", Resources: []*model.Resource{
		{Type: &model.Type{}, Kind: "Review", Verbs: model.VerbSet{model.VerbCreate: true}},
	}}
	g.Versions = []*model.GroupVersion{gv}
	out := gofile.NewOutput()
	if err := Generate(&model.Universe{Groups: []*model.Group{g}}, layout.Layout{Module: "m", InformersPath: "informers/externalversions", ListersPath: "listers"}, out); err != nil {
		t.Fatal(err)
	}
	if paths := out.Paths(); len(paths) != 0 {
		t.Errorf("generated %v for a universe without informable resources", paths)
	}
}
