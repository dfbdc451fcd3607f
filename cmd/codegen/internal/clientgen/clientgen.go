package clientgen

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

// Generate adds the typed client packages of every group version in u to out.
// Hand-written expansion files already present in the output directories
// are detected so their expansion interfaces are not generated again.
func Generate(u *model.Universe, l layout.Layout, out *gofile.Output) error {
	for _, gv := range u.GroupVersions() {
		g := &generator{u: u, l: l, gv: gv, rel: l.TypedRel(gv)}
		if err := g.run(out); err != nil {
			return fmt.Errorf("typed client for %s/%s: %v", gv.Group.PackageName, gv.Version, err)
		}
	}
	return nil
}

type generator struct {
	u   *model.Universe
	l   layout.Layout
	gv  *model.GroupVersion
	rel string
}

func (g *generator) pkgName() string { return g.gv.Version }

// clientName is the group client type name, such as AppsV1.
func (g *generator) clientName() string {
	return g.gv.Group.GoName + model.UpperFirst(g.gv.Version)
}

func (g *generator) run(out *gofile.Output) error {
	if err := out.Add(g.rel, "doc.go", docFile(g.pkgName(), fmt.Sprintf("Package %s holds the typed clients of the %s API group, version %s.", g.pkgName(), groupLabel(g.gv.Group), g.gv.Version))); err != nil {
		return err
	}
	if err := out.Add(g.rel, strings.ToLower(g.gv.Group.PackageName)+"_client.go", g.groupClient()); err != nil {
		return err
	}
	for _, r := range g.gv.Resources {
		f, err := g.resourceFile(r)
		if err != nil {
			return err
		}
		if err := out.Add(g.rel, strings.ToLower(r.Kind)+".go", f); err != nil {
			return err
		}
	}
	handWritten := existingExpansions(g.l.Dir(g.rel))
	exp := gofile.New(g.pkgName())
	for _, r := range g.gv.Resources {
		if handWritten[r.Kind+"Expansion"] {
			continue
		}
		exp.Printf("// %sExpansion is where hand-written methods of %sInterface are added.\ntype %sExpansion interface{}\n\n", r.Kind, r.Kind, r.Kind)
	}
	return out.Add(g.rel, "generated_expansion.go", exp)
}

func groupLabel(g *model.Group) string {
	if g.Name == "" {
		return "core"
	}
	return g.Name
}

// docFile returns a file holding only a package doc comment.
func docFile(pkg, comment string) *gofile.File {
	return gofile.NewWithDoc(pkg, comment)
}

var expansionDecl = regexp.MustCompile(`(?m)^type\s+([A-Z]\w*Expansion)\s+interface`)

// existingExpansions returns the expansion interfaces declared by the
// hand-written (not generated) Go files of dir.
func existingExpansions(dir string) map[string]bool {
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

func (g *generator) groupClient() *gofile.File {
	f := gofile.New(g.pkgName())
	rest := f.Import(g.l.Runtime("rest"))
	scheme := f.Import(g.l.Import(g.l.SchemeRel()))
	api := f.Import(g.gv.Package.Path)
	http := f.Import("net/http")
	name := g.clientName()

	f.Printf("// %sInterface gives access to the resources of %s/%s.\n", name, groupLabel(g.gv.Group), g.gv.Version)
	f.Printf("type %sInterface interface {\n\tRESTClient() %s.Interface\n", name, rest)
	for _, r := range g.gv.Resources {
		f.Printf("\t%sGetter\n", r.Plural)
	}
	f.Printf("}\n\n")
	f.Printf("// %sClient talks to the %s/%s API through one REST client.\n", name, groupLabel(g.gv.Group), g.gv.Version)
	f.Printf("type %sClient struct {\n\trestClient %s.Interface\n}\n\n", name, rest)
	for _, r := range g.gv.Resources {
		if r.Namespaced {
			f.Printf("// %s returns the client of %s in namespace.\n", r.Plural, r.Resource)
			f.Printf("func (c *%sClient) %s(namespace string) %sInterface {\n\treturn new%s(c, namespace)\n}\n\n", name, r.Plural, r.Kind, r.Plural)
		} else {
			f.Printf("// %s returns the client of %s.\n", r.Plural, r.Resource)
			f.Printf("func (c *%sClient) %s() %sInterface {\n\treturn new%s(c)\n}\n\n", name, r.Plural, r.Kind, r.Plural)
		}
	}
	apiPath := "/apis"
	if g.gv.Group.Name == "" {
		apiPath = "/api"
	}
	f.Printf(`// NewForConfig returns a %[1]sClient for c. The config is copied and
// completed with the group's defaults; c itself is not modified.
func NewForConfig(c *%[2]s.Config) (*%[1]sClient, error) {
	config := *c
	setConfigDefaults(&config)
	httpClient, err := %[2]s.HTTPClientFor(&config)
	if err != nil {
		return nil, err
	}
	return NewForConfigAndClient(&config, httpClient)
}

// NewForConfigAndClient returns a %[1]sClient for c that sends its requests
// through h.
func NewForConfigAndClient(c *%[2]s.Config, h *%[5]s.Client) (*%[1]sClient, error) {
	config := *c
	setConfigDefaults(&config)
	client, err := %[2]s.RESTClientForConfigAndClient(&config, h)
	if err != nil {
		return nil, err
	}
	return &%[1]sClient{restClient: client}, nil
}

// NewForConfigOrDie is NewForConfig that panics on error.
func NewForConfigOrDie(c *%[2]s.Config) *%[1]sClient {
	client, err := NewForConfig(c)
	if err != nil {
		panic(err)
	}
	return client
}

// New returns a %[1]sClient that uses c.
func New(c %[2]s.Interface) *%[1]sClient {
	return &%[1]sClient{restClient: c}
}

// setConfigDefaults points config at the group version and its codecs.
func setConfigDefaults(config *%[2]s.Config) {
	groupVersion := %[4]s.SchemeGroupVersion
	config.GroupVersion = &groupVersion
	config.APIPath = %[6]q
	config.NegotiatedSerializer = %[7]s
	if config.UserAgent == "" {
		config.UserAgent = %[2]s.DefaultKubernetesUserAgent()
	}
}

// RESTClient returns the REST client the typed clients share; nil for a nil
// receiver.
func (c *%[1]sClient) RESTClient() %[2]s.Interface {
	if c == nil {
		return nil
	}
	return c.restClient
}
`, name, rest, scheme, api, http, apiPath, g.negotiatedSerializer(f, rest, scheme))
	return f
}

// negotiatedSerializer is the expression setConfigDefaults assigns: the
// scheme's codecs as client-go's generated clients set them. The REST
// client puts its fast decoders behind them (internal/wirecodec), for this
// module's clientset and a user's alike.
func (g *generator) negotiatedSerializer(f *gofile.File, rest, scheme string) string {
	return fmt.Sprintf("%[1]s.CodecFactoryForGeneratedClient(%[2]s.Scheme, %[2]s.Codecs).WithoutConversion()", rest, scheme)
}
