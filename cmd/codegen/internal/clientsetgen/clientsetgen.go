// Package clientsetgen generates the clientset package, which bundles one
// typed client per group version behind a single Interface, and its scheme
// package, which registers every input group version.
package clientsetgen

import (
	"github.com/kubeclient/client-go/cmd/codegen/internal/gofile"
	"github.com/kubeclient/client-go/cmd/codegen/internal/layout"
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

// Generate adds the clientset and scheme packages to out.
func Generate(u *model.Universe, l layout.Layout, out *gofile.Output) error {
	if err := out.Add(l.SchemeRel(), "doc.go", gofile.NewWithDoc("scheme", "Package scheme holds the runtime.Scheme, codecs and parameter codec that know\nevery API type served by the clientset.")); err != nil {
		return err
	}
	if err := out.Add(l.SchemeRel(), "register.go", schemeFile(u)); err != nil {
		return err
	}
	pkg := pathBase(l.ClientsetPath)
	if err := out.Add(l.ClientsetPath, "doc.go", gofile.NewWithDoc(pkg, "Package "+pkg+" holds the clientset: one typed client per API group version\nbehind a single Interface.")); err != nil {
		return err
	}
	return out.Add(l.ClientsetPath, "clientset.go", clientsetFile(u, l, pkg))
}

func pathBase(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}

func schemeFile(u *model.Universe) *gofile.File {
	f := gofile.New("scheme")
	runtime := f.Import("k8s.io/apimachinery/pkg/runtime")
	schema := f.Import("k8s.io/apimachinery/pkg/runtime/schema")
	serializer := f.Import("k8s.io/apimachinery/pkg/runtime/serializer")
	utilruntime := f.Import("k8s.io/apimachinery/pkg/util/runtime")
	metav1 := f.Import("k8s.io/apimachinery/pkg/apis/meta/v1")
	f.Printf("// Scheme knows every type of the clientset's group versions.\nvar Scheme = %s.NewScheme()\n\n", runtime)
	f.Printf("// Codecs encodes and decodes objects of Scheme.\nvar Codecs = %s.NewCodecFactory(Scheme)\n\n", serializer)
	f.Printf("// ParameterCodec converts option structs to and from URL query parameters.\nvar ParameterCodec = %s.NewParameterCodec(Scheme)\n\n", runtime)
	f.Printf("var localSchemeBuilder = %s.SchemeBuilder{\n", runtime)
	for _, gv := range u.GroupVersions() {
		f.Printf("\t%s.AddToScheme,\n", f.Import(gv.Package.Path))
	}
	f.Printf("}\n\n")
	f.Printf(`// AddToScheme registers the types of every group version of the clientset
// in a scheme. Merge it into another scheme to let that scheme's clients
// handle these types:
//
//	utilruntime.Must(scheme.AddToScheme(myScheme))
var AddToScheme = localSchemeBuilder.AddToScheme

func init() {
	%s.AddToGroupVersion(Scheme, %s.GroupVersion{Version: "v1"})
	%s.Must(AddToScheme(Scheme))
}
`, metav1, schema, utilruntime)
	return f
}

func clientsetFile(u *model.Universe, l layout.Layout, pkg string) *gofile.File {
	f := gofile.New(pkg)
	rest := f.Import(l.Runtime("rest"))
	discovery := f.Import(l.Runtime("discovery"))
	flowcontrol := f.Import(l.Runtime("util/flowcontrol"))
	fmt := f.Import("fmt")
	http := f.Import("net/http")
	type entry struct {
		accessor, field, alias string
	}
	var entries []entry
	for _, gv := range u.GroupVersions() {
		acc := gv.Group.GoName + model.UpperFirst(gv.Version)
		entries = append(entries, entry{accessor: acc, field: model.LowerFirst(acc), alias: f.Import(l.Import(l.TypedRel(gv)))})
	}
	f.Printf("// Interface is the set of typed clients of the clientset.\ntype Interface interface {\n\tDiscovery() %s.DiscoveryInterfaces\n", discovery)
	for _, e := range entries {
		f.Printf("\t%s() %s.%sInterface\n", e.accessor, e.alias, e.accessor)
	}
	f.Printf("}\n\n")
	f.Printf("// Clientset holds one client per group version and a discovery client.\ntype Clientset struct {\n\t*%s.DiscoveryClient\n", discovery)
	for _, e := range entries {
		f.Printf("\t%s *%s.%sClient\n", e.field, e.alias, e.accessor)
	}
	f.Printf("}\n\n")
	for _, e := range entries {
		f.Printf("// %s returns the %s client.\nfunc (c *Clientset) %s() %s.%sInterface {\n\treturn c.%s\n}\n\n", e.accessor, e.accessor, e.accessor, e.alias, e.accessor, e.field)
	}
	f.Printf(`// Discovery returns the discovery client; nil for a nil receiver.
func (c *Clientset) Discovery() %[1]s.DiscoveryInterfaces {
	if c == nil {
		return nil
	}
	return c.DiscoveryClient
}

// NewForConfig returns a Clientset for c. All clients share one HTTP client
// built from c.
func NewForConfig(c *%[2]s.Config) (*Clientset, error) {
	config := *c
	if config.UserAgent == "" {
		config.UserAgent = %[2]s.DefaultKubernetesUserAgent()
	}
	httpClient, err := %[2]s.HTTPClientFor(&config)
	if err != nil {
		return nil, err
	}
	return NewForConfigAndClient(&config, httpClient)
}

// NewForConfigAndClient returns a Clientset for c whose clients send their
// requests through httpClient. When c sets QPS but no RateLimiter, the
// clients share one token bucket limiter.
func NewForConfigAndClient(c *%[2]s.Config, httpClient *%[4]s.Client) (*Clientset, error) {
	config := *c
	if config.RateLimiter == nil && config.QPS > 0 {
		if config.Burst <= 0 {
			return nil, %[5]s.Errorf("burst is required to be greater than 0 when RateLimiter is not set and QPS is set to greater than 0")
		}
		config.RateLimiter = %[3]s.NewTokenBucketRateLimiter(config.QPS, config.Burst)
	}
	var cs Clientset
	var err error
`, discovery, rest, flowcontrol, http, fmt)
	for _, e := range entries {
		f.Printf("\tif cs.%s, err = %s.NewForConfigAndClient(&config, httpClient); err != nil {\n\t\treturn nil, err\n\t}\n", e.field, e.alias)
	}
	f.Printf(`	if cs.DiscoveryClient, err = %[1]s.NewDiscoveryClientForConfigAndClient(&config, httpClient); err != nil {
		return nil, err
	}
	return &cs, nil
}

// NewForConfigOrDie is NewForConfig that panics on error.
func NewForConfigOrDie(c *%[2]s.Config) *Clientset {
	cs, err := NewForConfig(c)
	if err != nil {
		panic(err)
	}
	return cs
}

// New returns a Clientset whose clients all use c.
func New(c %[2]s.Interface) *Clientset {
	var cs Clientset
`, discovery, rest)
	for _, e := range entries {
		f.Printf("\tcs.%s = %s.New(c)\n", e.field, e.alias)
	}
	f.Printf("\tcs.DiscoveryClient = %s.NewDiscoveryClient(c)\n\treturn &cs\n}\n", discovery)
	return f
}
