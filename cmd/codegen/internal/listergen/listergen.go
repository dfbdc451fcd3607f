package listergen

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/kubeclient/client-go/cmd/codegen/internal/gofile"
	"github.com/kubeclient/client-go/cmd/codegen/internal/layout"
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

// Generate adds the lister package of every group version of u with
// listable resources to out. Expansion interfaces already declared by
// hand-written files of an output directory are not generated again, so a
// package can extend its listers with methods of its own.
func Generate(u *model.Universe, l layout.Layout, out *gofile.Output) error {
	for _, gv := range GroupVersions(u) {
		if err := generateGroupVersion(gv, l, out); err != nil {
			return fmt.Errorf("listers for %s/%s: %v", gv.Group.PackageName, gv.Version, err)
		}
	}
	return nil
}

func generateGroupVersion(gv *model.GroupVersion, l layout.Layout, out *gofile.Output) error {
	rel := l.ListerRel(gv)
	pkg := gv.Version
	doc := fmt.Sprintf("Package %s holds the listers of the %s API group, version %s: read-only\nviews of the objects cached by shared informers.", pkg, groupLabel(gv.Group), gv.Version)
	if err := out.Add(rel, "doc.go", gofile.NewWithDoc(pkg, doc)); err != nil {
		return err
	}
	resources := Resources(gv)
	for _, r := range resources {
		if err := out.Add(rel, strings.ToLower(r.Kind)+".go", listerFile(gv, r, l)); err != nil {
			return err
		}
	}
	handWritten := handWrittenExpansions(l.Dir(rel))
	exp := gofile.New(pkg)
	for _, r := range resources {
		names := []string{r.Kind + "ListerExpansion"}
		if r.Namespaced {
			names = append(names, r.Kind+"NamespaceListerExpansion")
		}
		for _, name := range names {
			if handWritten[name] {
				continue
			}
			exp.Printf("// %s is where hand-written methods of %s are declared.\ntype %s interface{}\n\n", name, strings.TrimSuffix(name, "Expansion"), name)
		}
	}
	return out.Add(rel, "expansion_generated.go", exp)
}

func groupLabel(g *model.Group) string {
	if g.Name == "" {
		return "core"
	}
	return g.Name
}

// listerFile writes <kind>.go: the lister interfaces of one resource and
// their implementation over listers.ResourceIndexer.
func listerFile(gv *model.GroupVersion, r *model.Resource, l layout.Layout) *gofile.File {
	f := gofile.New(gv.Version)
	api := f.Import(gv.Package.Path)
	labels := f.Import("k8s.io/apimachinery/pkg/labels")
	schema := f.Import("k8s.io/apimachinery/pkg/runtime/schema")
	listers := f.Import(l.Runtime(runtimeListers))
	cache := f.Import(l.Runtime("tools/cache"))
	obj := "*" + api + "." + r.Kind
	impl := model.LowerFirst(r.Kind) + "Lister"
	indexer := fmt.Sprintf("%s.ResourceIndexer[%s]", listers, obj)
	groupResource := fmt.Sprintf("%s.GroupResource{Group: %q, Resource: %q}", schema, gv.Group.Name, strings.ToLower(r.Kind))

	f.Printf("// %sLister reads %s objects from an indexer, usually the cache of a\n// shared informer. Returned objects are shared with the cache: treat them\n// as read-only.\n", r.Kind, r.Kind)
	f.Printf("type %sLister interface {\n", r.Kind)
	f.Printf("\t// List returns the %s whose labels match selector.\n", r.Plural)
	f.Printf("\tList(selector %s.Selector) (ret []%s, err error)\n", labels, obj)
	if r.Namespaced {
		f.Printf("\t// %s returns a lister restricted to namespace.\n", r.Plural)
		f.Printf("\t%s(namespace string) %sNamespaceLister\n", r.Plural, r.Kind)
	} else {
		f.Printf("\t// Get returns the %s called name, or a NotFound error.\n", r.Kind)
		f.Printf("\tGet(name string) (%s, error)\n", obj)
	}
	f.Printf("\t%sListerExpansion\n}\n\n", r.Kind)

	f.Printf("type %s struct {\n\t%s\n}\n\n", impl, indexer)
	f.Printf("// New%sLister returns a %sLister reading from indexer.\n", r.Kind, r.Kind)
	f.Printf("func New%sLister(indexer %s.Indexer) %sLister {\n", r.Kind, cache, r.Kind)
	f.Printf("\treturn &%s{%s.New[%s](indexer, %s)}\n}\n\n", impl, listers, obj, groupResource)
	if !r.Namespaced {
		return f
	}
	nsImpl := model.LowerFirst(r.Kind) + "NamespaceLister"
	f.Printf("// %s returns a lister of the %s objects in namespace.\n", r.Plural, r.Kind)
	f.Printf("func (s *%s) %s(namespace string) %sNamespaceLister {\n", impl, r.Plural, r.Kind)
	f.Printf("\treturn %s{%s.NewNamespaced(s.ResourceIndexer, namespace)}\n}\n\n", nsImpl, listers)

	f.Printf("// %sNamespaceLister reads the %s objects of one namespace. Returned\n// objects are shared with the cache: treat them as read-only.\n", r.Kind, r.Kind)
	f.Printf("type %sNamespaceLister interface {\n", r.Kind)
	f.Printf("\t// List returns the %s of the namespace whose labels match selector.\n", r.Plural)
	f.Printf("\tList(selector %s.Selector) (ret []%s, err error)\n", labels, obj)
	f.Printf("\t// Get returns the %s of the namespace called name, or a NotFound error.\n", r.Kind)
	f.Printf("\tGet(name string) (%s, error)\n", obj)
	f.Printf("\t%sNamespaceListerExpansion\n}\n\n", r.Kind)
	f.Printf("type %s struct {\n\t%s\n}\n", nsImpl, indexer)
	return f
}

var expansionDecl = regexp.MustCompile(`(?m)^type\s+([A-Z]\w*Expansion)\s+interface`)

// handWrittenExpansions returns the expansion interfaces declared by the
// hand-written (not generated, not test) Go files of dir.
func handWrittenExpansions(dir string) map[string]bool {
	found := map[string]bool{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return found
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil || gofile.IsGenerated(src) {
			continue
		}
		for _, m := range expansionDecl.FindAllSubmatch(src, -1) {
			found[string(m[1])] = true
		}
	}
	return found
}
