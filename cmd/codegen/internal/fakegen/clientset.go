package fakegen

import (
	"github.com/kubeclient/client-go/cmd/codegen/internal/gofile"
	"github.com/kubeclient/client-go/cmd/codegen/internal/layout"
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

// generateClientset adds the fake clientset package: doc.go, register.go
// (its scheme and AddToScheme) and clientset_generated.go.
func generateClientset(u *model.Universe, l layout.Layout, out *gofile.Output) error {
	rel := FakeClientsetRel(l)
	doc := "Package fake holds an in-memory Clientset for tests. Its clients record\nevery call as an action and answer from an ObjectTracker that stores objects\nexactly as given, like client-go's; NewClientset adds managed fields and\nserver-side apply. NewServerLikeClientset (an addition to client-go) answers\nlike a small API server instead: generateName, uids, resourceVersions and\nconflicts, generation, finalizers, label and field selectors, watches from a\nresourceVersion, and server-side apply with field ownership, through the\ntracker of testing.NewServerLikeFieldManagedObjectTracker."
	if err := out.Add(rel, "doc.go", gofile.NewWithDoc("fake", doc)); err != nil {
		return err
	}
	if err := out.Add(rel, "register.go", registerFile(u)); err != nil {
		return err
	}
	return out.Add(rel, "clientset_generated.go", clientsetFile(u, l))
}

func registerFile(u *model.Universe) *gofile.File {
	f := gofile.New("fake")
	runtime := f.Import("k8s.io/apimachinery/pkg/runtime")
	schema := f.Import("k8s.io/apimachinery/pkg/runtime/schema")
	serializer := f.Import("k8s.io/apimachinery/pkg/runtime/serializer")
	utilruntime := f.Import("k8s.io/apimachinery/pkg/util/runtime")
	metav1 := f.Import("k8s.io/apimachinery/pkg/apis/meta/v1")
	f.Printf("// scheme knows every type the fake clientset serves; its tracker decodes with codecs.\n")
	f.Printf("var scheme = %s.NewScheme()\n\nvar codecs = %s.NewCodecFactory(scheme)\n\n", runtime, serializer)
	f.Printf("// parameterCodec converts option structs to query parameters, as the real\n// clientset's scheme package does.\nvar parameterCodec = %s.NewParameterCodec(scheme)\n\n", runtime)
	f.Printf("var localSchemeBuilder = %s.SchemeBuilder{\n", runtime)
	for _, gv := range u.GroupVersions() {
		f.Printf("\t%s.AddToScheme,\n", f.Import(gv.Package.Path))
	}
	f.Printf("}\n\n")
	f.Printf(`// AddToScheme registers every type of the fake clientset's group versions in
// a scheme, so that a scheme of another clientset can also handle them:
//
//	utilruntime.Must(fake.AddToScheme(otherScheme))
var AddToScheme = localSchemeBuilder.AddToScheme

func init() {
	%s.AddToGroupVersion(scheme, %s.GroupVersion{Version: "v1"})
	%s.Must(AddToScheme(scheme))
}
`, metav1, schema, utilruntime)
	return f
}

func clientsetFile(u *model.Universe, l layout.Layout) *gofile.File {
	f := gofile.New("fake")
	clientset := f.Import(l.Import(l.ClientsetPath))
	applyconfigurations := f.Import(l.Import(l.ApplyConfigPath))
	discovery := f.Import(l.Runtime("discovery"))
	fakediscovery := f.Import(l.Runtime("discovery/fake"))
	testing := f.Import(l.Runtime("testing"))
	runtime := f.Import("k8s.io/apimachinery/pkg/runtime")
	watch := f.Import("k8s.io/apimachinery/pkg/watch")
	metav1 := f.Import("k8s.io/apimachinery/pkg/apis/meta/v1")
	f.Printf(`// Clientset is an in-memory %[1]s.Interface. Embed it to override only the
// calls a test cares about; add reactors to the embedded Fake to inject
// errors or custom answers.
type Clientset struct {
	%[2]s.Fake
	discovery *%[3]s.FakeDiscovery
	tracker   %[2]s.ObjectTracker
}

var (
	_ %[1]s.Interface = &Clientset{}
	_ %[2]s.FakeClient = &Clientset{}
)

// NewSimpleClientset returns a Clientset seeded with objects, backed by a
// tracker without field management.
//
// Deprecated: NewClientset also supports server-side apply; use it instead.
func NewSimpleClientset(objects ...%[4]s.Object) *Clientset {
	return newClientset(%[2]s.NewObjectTracker(scheme, codecs.UniversalDecoder()), objects)
}

// NewClientset returns a Clientset seeded with objects, backed by a tracker
// that manages fields and so supports server-side apply of built-in types.
func NewClientset(objects ...%[4]s.Object) *Clientset {
	tracker := %[2]s.NewFieldManagedObjectTracker(scheme, codecs.UniversalDecoder(), %[5]s.NewTypeConverter(scheme))
	return newClientset(tracker, objects)
}

// NewServerLikeClientset returns a Clientset seeded with objects that
// answers like a small API server: its tracker is
// testing.NewServerLikeFieldManagedObjectTracker's. Creates fill in uid,
// creationTimestamp, generation and a name from generateName; every write
// stores a new resourceVersion and an update carrying a stale one fails
// with a Conflict; lists and watches honour label and field selectors; a
// watch from a resourceVersion replays the changes made after it;
// finalizers delay deletion; dry-run writes are not stored; and
// server-side apply tracks field ownership per field manager, the status
// subresource apart from the rest. The seed objects are stored as given,
// with the metadata they carry. It is an addition to client-go.
func NewServerLikeClientset(objects ...%[4]s.Object) *Clientset {
	tracker := %[2]s.NewServerLikeFieldManagedObjectTracker(scheme, codecs.UniversalDecoder(), %[5]s.NewTypeConverter(scheme))
	return newClientset(tracker, objects)
}

// newClientset seeds tracker with objects, panicking on an object the
// scheme does not know, and routes every action to tracker.
func newClientset(tracker %[2]s.ObjectTracker, objects []%[4]s.Object) *Clientset {
	for _, obj := range objects {
		if err := tracker.Add(obj); err != nil {
			panic(err)
		}
	}
	cs := &Clientset{tracker: tracker}
	cs.discovery = &%[3]s.FakeDiscovery{Fake: &cs.Fake}
	cs.AddReactor("*", "*", %[2]s.ObjectReaction(tracker))
	cs.AddWatchReactor("*", func(action %[2]s.Action) (bool, %[6]s.Interface, error) {
		var opts %[7]s.ListOptions
		if w, ok := action.(%[2]s.WatchActionImpl); ok {
			opts = w.ListOptions
		}
		w, err := tracker.Watch(action.GetResource(), action.GetNamespace(), opts)
		if err != nil {
			return false, nil, err
		}
		return true, w, nil
	})
	return cs
}

// Discovery returns a fake discovery client sharing the clientset's Fake.
func (c *Clientset) Discovery() %[8]s.DiscoveryInterfaces {
	return c.discovery
}

// Tracker returns the object tracker behind the clientset.
func (c *Clientset) Tracker() %[2]s.ObjectTracker {
	return c.tracker
}

// IsWatchListSemanticsUnSupported reports true: the fake clientset serves no
// watch-list streams, so reflectors fall back to list and watch.
func (c *Clientset) IsWatchListSemanticsUnSupported() bool {
	return true
}
`, clientset, testing, fakediscovery, runtime, applyconfigurations, watch, metav1, discovery)
	for _, gv := range u.GroupVersions() {
		acc := groupClientName(gv)
		typed := f.Import(l.Import(l.TypedRel(gv)))
		fake := f.Import(l.Import(FakeTypedRel(l, gv)))
		f.Printf("\n// %s returns the fake %s client.\nfunc (c *Clientset) %s() %s.%sInterface {\n\treturn &%s.Fake%s{Fake: &c.Fake}\n}\n", acc, acc, acc, typed, acc, fake, acc)
	}
	return f
}
