package informergen

import (
	"fmt"
	"path"
	"strings"

	"github.com/kubeclient/client-go/cmd/codegen/internal/gofile"
	"github.com/kubeclient/client-go/cmd/codegen/internal/layout"
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

// Generate adds the informer packages of u to out: the factory, the
// internalinterfaces package, one package per group and one per group
// version with informable resources. The informers read through the
// clientset at l.ClientsetPath and hand out the listers of listergen.
func Generate(u *model.Universe, l layout.Layout, out *gofile.Output) error {
	gs := groups(u)
	if len(gs) == 0 {
		return nil
	}
	g := &generator{l: l}
	if err := g.internalInterfaces(out); err != nil {
		return err
	}
	if err := g.factory(gs, out); err != nil {
		return err
	}
	for _, sg := range gs {
		if err := g.group(sg, out); err != nil {
			return fmt.Errorf("informers for group %s: %v", sg.PackageName, err)
		}
		for _, gv := range sg.Versions {
			if err := g.version(gv, out); err != nil {
				return fmt.Errorf("informers for %s/%s: %v", sg.PackageName, gv.Version, err)
			}
		}
	}
	return nil
}

type generator struct {
	l layout.Layout
}

func groupLabel(g *model.Group) string {
	if g.Name == "" {
		return "core"
	}
	return g.Name
}

// clientAccessor is the clientset method returning gv's typed client (AppsV1).
func clientAccessor(gv *model.GroupVersion) string {
	return gv.Group.GoName + model.UpperFirst(gv.Version)
}

func (g *generator) internalInterfaces(out *gofile.Output) error {
	pkg := path.Base(g.l.InternalInterfacesRel())
	if err := out.Add(g.l.InternalInterfacesRel(), "doc.go", gofile.NewWithDoc(pkg, "Package "+pkg+" declares the interfaces the informer factory and the\ngenerated informers share, kept apart to avoid an import cycle.")); err != nil {
		return err
	}
	f := gofile.New(pkg)
	f.Printf(`// NewInformerFunc builds a shared index informer that reads through a
// clientset and resyncs every period (0: never).
type NewInformerFunc func(%[1]s.Interface, %[2]s.Duration) %[3]s.SharedIndexInformer

// SharedInformerFactory is the part of the informer factory that generated
// informers need to register themselves.
type SharedInformerFactory interface {
	// Start runs every informer not yet started until stopCh is closed.
	Start(stopCh <-chan struct{})
	// InformerFor returns the factory's informer for the type of obj,
	// building it with newFunc the first time.
	InformerFor(obj %[4]s.Object, newFunc NewInformerFunc) %[3]s.SharedIndexInformer
	// InformerName identifies the factory's informers in metrics; nil when
	// unnamed.
	InformerName() *%[3]s.InformerName
}

// TweakListOptionsFunc edits the options of every list and watch call of
// an informer, for example to add a label or field selector.
type TweakListOptionsFunc func(*%[5]s.ListOptions)

// InformerOptions configures an informer built outside a factory.
type InformerOptions struct {
	// ResyncPeriod is how often handlers get every object again; 0 never.
	ResyncPeriod %[2]s.Duration

	// Indexers are the indexes the informer's store maintains.
	Indexers %[3]s.Indexers

	// InformerName identifies the informer in metrics; nil publishes none.
	InformerName *%[3]s.InformerName

	// TweakListOptions, when set, edits every list and watch request.
	TweakListOptions TweakListOptionsFunc
}
`, f.Import(g.l.Import(g.l.ClientsetPath)), f.Import("time"), f.Import(g.l.Runtime("tools/cache")),
		f.Import("k8s.io/apimachinery/pkg/runtime"), f.Import("k8s.io/apimachinery/pkg/apis/meta/v1"))
	return out.Add(g.l.InternalInterfacesRel(), "factory_interfaces.go", f)
}

func (g *generator) group(sg selectedGroup, out *gofile.Output) error {
	rel := g.l.InformerGroupRel(sg.Group)
	pkg := path.Base(rel)
	if err := out.Add(rel, "doc.go", gofile.NewWithDoc(pkg, fmt.Sprintf("Package %s gives access to the shared informers of the %s API group,\none accessor per version.", pkg, groupLabel(sg.Group)))); err != nil {
		return err
	}
	f := gofile.New(pkg)
	ii := f.Import(g.l.Import(g.l.InternalInterfacesRel()))
	f.Printf("// Interface returns the informers of each version of the %s group.\ntype Interface interface {\n", groupLabel(sg.Group))
	for _, gv := range sg.Versions {
		v := model.UpperFirst(gv.Version)
		f.Printf("\t// %s returns the informers of %s/%s.\n\t%s() %s.Interface\n", v, groupLabel(sg.Group), gv.Version, v, f.Import(g.l.Import(g.l.InformerVersionRel(gv))))
	}
	f.Printf("}\n\n")
	f.Printf(`type group struct {
	factory          %[1]s.SharedInformerFactory
	namespace        string
	tweakListOptions %[1]s.TweakListOptionsFunc
}

// New returns the group's Interface; its informers register with f and
// watch namespace (every namespace when empty).
func New(f %[1]s.SharedInformerFactory, namespace string, tweakListOptions %[1]s.TweakListOptionsFunc) Interface {
	return &group{factory: f, namespace: namespace, tweakListOptions: tweakListOptions}
}
`, ii)
	for _, gv := range sg.Versions {
		v := model.UpperFirst(gv.Version)
		alias := f.Import(g.l.Import(g.l.InformerVersionRel(gv)))
		f.Printf("\n// %s returns the informers of %s/%s.\nfunc (g *group) %s() %s.Interface {\n\treturn %s.New(g.factory, g.namespace, g.tweakListOptions)\n}\n", v, groupLabel(sg.Group), gv.Version, v, alias, alias)
	}
	return out.Add(rel, "interface.go", f)
}

func (g *generator) version(gv *model.GroupVersion, out *gofile.Output) error {
	rel := g.l.InformerVersionRel(gv)
	pkg := gv.Version
	if err := out.Add(rel, "doc.go", gofile.NewWithDoc(pkg, fmt.Sprintf("Package %s holds the shared informers of the %s API group, version %s.", pkg, groupLabel(gv.Group), gv.Version))); err != nil {
		return err
	}
	rs := resources(gv)
	f := gofile.New(pkg)
	ii := f.Import(g.l.Import(g.l.InternalInterfacesRel()))
	f.Printf("// Interface returns the informer of each resource of %s/%s.\ntype Interface interface {\n", groupLabel(gv.Group), gv.Version)
	for _, r := range rs {
		f.Printf("\t// %s returns the informer of %s.\n\t%s() Typed%sInformer\n", r.Plural, r.Resource, r.Plural, r.Kind)
	}
	f.Printf("}\n\n")
	f.Printf(`type version struct {
	factory          %[1]s.SharedInformerFactory
	namespace        string
	tweakListOptions %[1]s.TweakListOptionsFunc
}

// New returns the version's Interface; its informers register with f and
// namespaced ones watch namespace (every namespace when empty).
func New(f %[1]s.SharedInformerFactory, namespace string, tweakListOptions %[1]s.TweakListOptionsFunc) Interface {
	return &version{factory: f, namespace: namespace, tweakListOptions: tweakListOptions}
}
`, ii)
	for _, r := range rs {
		impl := model.LowerFirst(r.Kind) + "Informer"
		ns := ""
		if r.Namespaced {
			ns = ", namespace: v.namespace"
		}
		f.Printf("\n// %s returns the informer of %s.\nfunc (v *version) %s() Typed%sInformer {\n\treturn &%s{factory: v.factory%s, tweakListOptions: v.tweakListOptions}\n}\n", r.Plural, r.Resource, r.Plural, r.Kind, impl, ns)
	}
	if err := out.Add(rel, "interface.go", f); err != nil {
		return err
	}
	for _, r := range rs {
		if err := out.Add(rel, strings.ToLower(r.Kind)+".go", g.resourceFile(gv, r)); err != nil {
			return err
		}
	}
	return nil
}
