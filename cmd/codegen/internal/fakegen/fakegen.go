package fakegen

import (
	"fmt"
	"path"
	"strings"

	"github.com/kubeclient/client-go/cmd/codegen/internal/gofile"
	"github.com/kubeclient/client-go/cmd/codegen/internal/layout"
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

// Generate adds the fake clientset package and the fake typed client
// package of every group version in u to out.
func Generate(u *model.Universe, l layout.Layout, out *gofile.Output) error {
	for _, gv := range u.GroupVersions() {
		g := &typedGenerator{u: u, l: l, gv: gv, rel: FakeTypedRel(l, gv)}
		if err := g.run(out); err != nil {
			return fmt.Errorf("fake typed client for %s/%s: %v", gv.Group.PackageName, gv.Version, err)
		}
	}
	return generateClientset(u, l, out)
}

// FakeTypedRel is the relative path of the fake typed client package of gv.
func FakeTypedRel(l layout.Layout, gv *model.GroupVersion) string {
	return path.Join(l.TypedRel(gv), "fake")
}

// FakeClientsetRel is the relative path of the fake clientset package.
func FakeClientsetRel(l layout.Layout) string {
	return path.Join(l.ClientsetPath, "fake")
}

// groupClientName is the name of the group client, such as AppsV1.
func groupClientName(gv *model.GroupVersion) string {
	return gv.Group.GoName + model.UpperFirst(gv.Version)
}

// fakeTypeName is the name of the fake resource client, such as
// fakeDeployments; hand-written expansions rely on it.
func fakeTypeName(r *model.Resource) string {
	return "fake" + r.Plural
}

func groupLabel(g *model.Group) string {
	if g.Name == "" {
		return "core"
	}
	return g.Name
}

type typedGenerator struct {
	u   *model.Universe
	l   layout.Layout
	gv  *model.GroupVersion
	rel string
}

func (g *typedGenerator) run(out *gofile.Output) error {
	doc := fmt.Sprintf("Package fake holds in-memory clients of the %s API group, version %s, that\nrecord their calls on a testing.Fake and answer from its reactors.", groupLabel(g.gv.Group), g.gv.Version)
	if err := out.Add(g.rel, "doc.go", gofile.NewWithDoc("fake", doc)); err != nil {
		return err
	}
	if err := out.Add(g.rel, "fake_"+strings.ToLower(g.gv.Group.PackageName)+"_client.go", g.groupClient()); err != nil {
		return err
	}
	for _, r := range g.gv.Resources {
		f, err := g.resourceFile(r)
		if err != nil {
			return fmt.Errorf("%s: %v", r.Kind, err)
		}
		if err := out.Add(g.rel, "fake_"+strings.ToLower(r.Kind)+".go", f); err != nil {
			return err
		}
	}
	return nil
}

func (g *typedGenerator) groupClient() *gofile.File {
	f := gofile.New("fake")
	typed := f.Import(g.l.Import(g.l.TypedRel(g.gv)))
	rest := f.Import(g.l.Runtime("rest"))
	testing := f.Import(g.l.Runtime("testing"))
	name := "Fake" + groupClientName(g.gv)
	f.Printf("// %s is the in-memory %sInterface: every resource client records its\n// calls on the embedded Fake.\n", name, groupClientName(g.gv))
	f.Printf("type %s struct {\n\t*%s.Fake\n}\n\n", name, testing)
	for _, r := range g.gv.Resources {
		if r.Namespaced {
			f.Printf("// %s returns the fake client of %s in namespace.\n", r.Plural, r.Resource)
			f.Printf("func (c *%s) %s(namespace string) %s.%sInterface {\n\treturn new%s(c, namespace)\n}\n\n", name, r.Plural, typed, r.Kind, model.UpperFirst(fakeTypeName(r)))
		} else {
			f.Printf("// %s returns the fake client of %s.\n", r.Plural, r.Resource)
			f.Printf("func (c *%s) %s() %s.%sInterface {\n\treturn new%s(c)\n}\n\n", name, r.Plural, typed, r.Kind, model.UpperFirst(fakeTypeName(r)))
		}
	}
	f.Printf("// RESTClient returns a nil *rest.RESTClient: fake clients send no HTTP requests.\n")
	f.Printf("func (c *%s) RESTClient() %s.Interface {\n\tvar ret *%s.RESTClient\n\treturn ret\n}\n", name, rest, rest)
	return f
}
