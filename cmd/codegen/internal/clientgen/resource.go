package clientgen

import (
	"fmt"
	"strings"

	"github.com/kubeclient/client-go/cmd/codegen/internal/gofile"
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

// resourceFile writes <kind>.go: the getter and client interfaces of one
// resource and their implementation over gentype.
func (g *generator) resourceFile(r *model.Resource) (*gofile.File, error) {
	f := gofile.New(g.pkgName())
	ctx := f.Import("context")
	metav1 := f.Import("k8s.io/apimachinery/pkg/apis/meta/v1")
	api := f.Import(g.gv.Package.Path)
	gentype := f.Import(g.l.Runtime("gentype"))
	scheme := f.Import(g.l.Import(g.l.SchemeRel()))
	obj := "*" + api + "." + r.Kind
	param := model.LowerFirst(r.Kind)
	param = safeIdent(param)
	needList := r.Verbs.Has(model.VerbList)
	needApply := r.Verbs.Has(model.VerbApply)
	if needList && r.List == nil {
		return nil, fmt.Errorf("%s has the list verb but the package declares no %sList", r.Kind, r.Kind)
	}
	var listType, applyType string
	if needList {
		listType = "*" + api + "." + r.List.Name
	}
	if needApply || r.Verbs.Has(model.VerbApplyStatus) {
		applyType = "*" + f.Import(g.l.ApplyImport(g.gv.Package.Path)) + "." + r.Kind + "ApplyConfiguration"
	}

	f.Printf("// %sGetter is implemented by clients that can return a %sInterface.\n", r.Plural, r.Kind)
	if r.Namespaced {
		f.Printf("type %sGetter interface {\n\t%s(namespace string) %sInterface\n}\n\n", r.Plural, r.Plural, r.Kind)
	} else {
		f.Printf("type %sGetter interface {\n\t%s() %sInterface\n}\n\n", r.Plural, r.Plural, r.Kind)
	}

	f.Printf("// %sInterface reads and writes %s objects.\n", r.Kind, r.Kind)
	f.Printf("type %sInterface interface {\n", r.Kind)
	for _, v := range model.AllVerbs {
		if !r.Verbs.Has(v) {
			continue
		}
		switch v {
		case model.VerbCreate:
			f.Printf("Create(ctx %s.Context, %s %s, opts %s.CreateOptions) (%s, error)\n", ctx, param, obj, metav1, obj)
		case model.VerbUpdate:
			f.Printf("Update(ctx %s.Context, %s %s, opts %s.UpdateOptions) (%s, error)\n", ctx, param, obj, metav1, obj)
		case model.VerbUpdateStatus:
			f.Printf("// UpdateStatus writes only the status of %s; omit it with +genclient:noStatus.\n", param)
			f.Printf("UpdateStatus(ctx %s.Context, %s %s, opts %s.UpdateOptions) (%s, error)\n", ctx, param, obj, metav1, obj)
		case model.VerbDelete:
			f.Printf("Delete(ctx %s.Context, name string, opts %s.DeleteOptions) error\n", ctx, metav1)
		case model.VerbDeleteCollection:
			f.Printf("DeleteCollection(ctx %s.Context, opts %s.DeleteOptions, listOpts %s.ListOptions) error\n", ctx, metav1, metav1)
		case model.VerbGet:
			f.Printf("Get(ctx %s.Context, name string, opts %s.GetOptions) (%s, error)\n", ctx, metav1, obj)
		case model.VerbList:
			f.Printf("List(ctx %s.Context, opts %s.ListOptions) (%s, error)\n", ctx, metav1, listType)
		case model.VerbWatch:
			f.Printf("Watch(ctx %s.Context, opts %s.ListOptions) (%s.Interface, error)\n", ctx, metav1, f.Import("k8s.io/apimachinery/pkg/watch"))
		case model.VerbPatch:
			f.Printf("Patch(ctx %s.Context, name string, pt %s.PatchType, data []byte, opts %s.PatchOptions, subresources ...string) (result %s, err error)\n", ctx, f.Import("k8s.io/apimachinery/pkg/types"), metav1, obj)
		case model.VerbApply:
			f.Printf("Apply(ctx %s.Context, %s %s, opts %s.ApplyOptions) (result %s, err error)\n", ctx, param, applyType, metav1, obj)
		case model.VerbApplyStatus:
			f.Printf("// ApplyStatus applies only the status of %s; omit it with +genclient:noStatus.\n", param)
			f.Printf("ApplyStatus(ctx %s.Context, %s %s, opts %s.ApplyOptions) (result %s, err error)\n", ctx, param, applyType, metav1, obj)
		}
	}
	for _, m := range r.Methods {
		sig, err := g.methodSignature(f, r, m)
		if err != nil {
			return nil, err
		}
		f.Printf("%s\n", sig)
	}
	f.Printf("\n%sExpansion\n}\n\n", r.Kind)

	// The implementation embeds the narrowest gentype client that covers
	// the verbs.
	var embedded, ctor string
	switch {
	case needList && needApply:
		embedded = fmt.Sprintf("%s.ClientWithListAndApply[%s, %s, %s]", gentype, obj, listType, applyType)
		ctor = fmt.Sprintf("%s.NewClientWithListAndApply[%s, %s, %s]", gentype, obj, listType, applyType)
	case needList:
		embedded = fmt.Sprintf("%s.ClientWithList[%s, %s]", gentype, obj, listType)
		ctor = fmt.Sprintf("%s.NewClientWithList[%s, %s]", gentype, obj, listType)
	case needApply:
		embedded = fmt.Sprintf("%s.ClientWithApply[%s, %s]", gentype, obj, applyType)
		ctor = fmt.Sprintf("%s.NewClientWithApply[%s, %s]", gentype, obj, applyType)
	default:
		embedded = fmt.Sprintf("%s.Client[%s]", gentype, obj)
		ctor = fmt.Sprintf("%s.NewClient[%s]", gentype, obj)
	}
	impl := model.LowerFirst(r.Plural)
	f.Printf("// %s implements %sInterface.\ntype %s struct {\n\t*%s\n}\n\n", impl, r.Kind, impl, embedded)
	nsParam, nsArg := "", `""`
	if r.Namespaced {
		nsParam, nsArg = ", namespace string", "namespace"
	}
	f.Printf("// new%s returns the %s client of c.\n", r.Plural, r.Resource)
	f.Printf("func new%s(c *%sClient%s) *%s {\n\treturn &%s{\n\t\t%s(\n", r.Plural, g.clientName(), nsParam, impl, impl, ctor)
	f.Printf("\t\t\t%q,\n\t\t\tc.RESTClient(),\n\t\t\t%s.ParameterCodec,\n\t\t\t%s,\n", r.Resource, scheme, nsArg)
	f.Printf("\t\t\tfunc() %s { return &%s.%s{} },\n", obj, api, r.Kind)
	if needList {
		f.Printf("\t\t\tfunc() %s { return &%s.%s{} },\n", listType, api, r.List.Name)
	}
	if g.l.PreferProtobuf {
		f.Printf("\t\t\t%s.PrefersProtobuf[%s](),\n", gentype, obj)
	}
	f.Printf("\t\t),\n\t}\n}\n\n")

	for _, m := range r.Methods {
		if err := g.methodBody(f, r, impl, m); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// typeExpr returns the Go expression of a named type reference.
func (g *generator) typeExpr(f *gofile.File, ref *model.TypeRef) string {
	return f.Import(ref.PkgPath) + "." + ref.Name
}

func (g *generator) applyExpr(f *gofile.File, ref *model.TypeRef) string {
	return f.Import(g.l.ApplyImportIn(g.u, ref.PkgPath)) + "." + ref.Name + "ApplyConfiguration"
}

// methodParams returns the parameter list of an extended method, without ctx.
func (g *generator) methodParams(f *gofile.File, r *model.Resource, m *model.ExtendedMethod) (string, error) {
	metav1 := f.Import("k8s.io/apimachinery/pkg/apis/meta/v1")
	name := safeIdent(model.LowerFirst(r.Kind) + "Name")
	input := safeIdent(model.LowerFirst(m.Input.Name))
	withName := m.Subresource != ""
	var parts []string
	switch m.Verb {
	case model.VerbGet:
		parts = []string{name + " string", "options " + metav1 + ".GetOptions"}
	case model.VerbList, model.VerbWatch:
		parts = []string{"opts " + metav1 + ".ListOptions"}
		if withName {
			parts = append([]string{name + " string"}, parts...)
		}
	case model.VerbDelete:
		parts = []string{name + " string", "opts " + metav1 + ".DeleteOptions"}
	case model.VerbCreate:
		parts = []string{input + " *" + g.typeExpr(f, m.Input), "opts " + metav1 + ".CreateOptions"}
		if withName {
			parts = append([]string{name + " string"}, parts...)
		}
	case model.VerbUpdate:
		parts = []string{input + " *" + g.typeExpr(f, m.Input), "opts " + metav1 + ".UpdateOptions"}
		if withName {
			parts = append([]string{name + " string"}, parts...)
		}
	case model.VerbApply:
		parts = []string{input + " *" + g.applyExpr(f, m.Input), "opts " + metav1 + ".ApplyOptions"}
		if withName {
			parts = append([]string{name + " string"}, parts...)
		}
	case model.VerbPatch:
		parts = []string{name + " string", "pt " + f.Import("k8s.io/apimachinery/pkg/types") + ".PatchType", "data []byte", "opts " + metav1 + ".PatchOptions"}
	default:
		return "", fmt.Errorf("method %s: unsupported verb %q", m.Name, m.Verb)
	}
	return strings.Join(parts, ", "), nil
}

func (g *generator) methodResult(f *gofile.File, m *model.ExtendedMethod) string {
	switch m.Verb {
	case model.VerbDelete:
		return "error"
	case model.VerbWatch:
		return "(" + f.Import("k8s.io/apimachinery/pkg/watch") + ".Interface, error)"
	}
	return "(*" + g.typeExpr(f, m.Result) + ", error)"
}

func (g *generator) methodSignature(f *gofile.File, r *model.Resource, m *model.ExtendedMethod) (string, error) {
	params, err := g.methodParams(f, r, m)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s(ctx %s.Context, %s) %s", m.Name, f.Import("context"), params, g.methodResult(f, m)), nil
}

// methodBody writes the implementation of an extended method as a direct
// REST request on the resource's subresource.
func (g *generator) methodBody(f *gofile.File, r *model.Resource, impl string, m *model.ExtendedMethod) error {
	sig, err := g.methodSignature(f, r, m)
	if err != nil {
		return err
	}
	scheme := f.Import(g.l.Import(g.l.SchemeRel()))
	name := safeIdent(model.LowerFirst(r.Kind) + "Name")
	input := safeIdent(model.LowerFirst(m.Input.Name))
	withName := m.Subresource != "" || m.Verb == model.VerbGet || m.Verb == model.VerbDelete || m.Verb == model.VerbPatch
	proto := ""
	if g.l.PreferProtobuf {
		proto = "UseProtobufAsDefault()."
	}
	target := func() string {
		var b strings.Builder
		fmt.Fprintf(&b, "\t\t%s\n", proto)
		if r.Namespaced {
			b.WriteString("\t\tNamespace(c.GetNamespace()).\n")
		}
		fmt.Fprintf(&b, "\t\tResource(%q).\n", r.Resource)
		if withName {
			fmt.Fprintf(&b, "\t\tName(%s).\n", name)
		}
		if m.Subresource != "" {
			fmt.Fprintf(&b, "\t\tSubResource(%q).\n", m.Subresource)
		}
		return b.String()
	}
	f.Printf("// %s is the %s verb on the %s of %s.\n", m.Name, m.Verb, subresourceLabel(m), r.Resource)
	f.Printf("func (c *%s) %s {\n", impl, sig)
	result := "*" + g.typeExpr(f, m.Result)
	switch m.Verb {
	case model.VerbGet:
		f.Printf("\tresult := &%s{}\n\terr := c.GetClient().Get().\n%s\t\tVersionedParams(&options, %s.ParameterCodec).\n\t\tDo(ctx).\n\t\tInto(result)\n\treturn result, err\n}\n\n", result[1:], target(), scheme)
	case model.VerbCreate, model.VerbUpdate:
		verb := "Post"
		if m.Verb == model.VerbUpdate {
			verb = "Put"
		}
		f.Printf("\tresult := &%s{}\n\terr := c.GetClient().%s().\n%s\t\tVersionedParams(&opts, %s.ParameterCodec).\n\t\tBody(%s).\n\t\tDo(ctx).\n\t\tInto(result)\n\treturn result, err\n}\n\n", result[1:], verb, target(), scheme, input)
	case model.VerbApply:
		apply := f.Import(g.l.Runtime("util/apply"))
		f.Printf("\tif %s == nil {\n\t\treturn nil, %s.Errorf(\"%s: the apply configuration must not be nil\")\n\t}\n", input, f.Import("fmt"), m.Name)
		f.Printf("\tpatchOpts := opts.ToPatchOptions()\n\trequest, err := %s.NewRequest(c.GetClient(), %s)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n", apply, input)
		f.Printf("\tresult := &%s{}\n\terr = request.\n%s\t\tVersionedParams(&patchOpts, %s.ParameterCodec).\n\t\tDo(ctx).\n\t\tInto(result)\n\treturn result, err\n}\n\n", result[1:], target(), scheme)
	case model.VerbList:
		f.Printf("\tresult := &%s{}\n\terr := c.GetClient().Get().\n%s\t\tVersionedParams(&opts, %s.ParameterCodec).\n\t\tDo(ctx).\n\t\tInto(result)\n\treturn result, err\n}\n\n", result[1:], target(), scheme)
	case model.VerbWatch:
		f.Printf("\topts.Watch = true\n\treturn c.GetClient().Get().\n%s\t\tVersionedParams(&opts, %s.ParameterCodec).\n\t\tWatch(ctx)\n}\n\n", target(), scheme)
	case model.VerbDelete:
		f.Printf("\treturn c.GetClient().Delete().\n%s\t\tBody(&opts).\n\t\tDo(ctx).\n\t\tError()\n}\n\n", target())
	case model.VerbPatch:
		f.Printf("\tresult := &%s{}\n\terr := c.GetClient().Patch(pt).\n%s\t\tVersionedParams(&opts, %s.ParameterCodec).\n\t\tBody(data).\n\t\tDo(ctx).\n\t\tInto(result)\n\treturn result, err\n}\n\n", result[1:], target(), scheme)
	}
	return nil
}

func subresourceLabel(m *model.ExtendedMethod) string {
	if m.Subresource == "" {
		return "collection"
	}
	return m.Subresource + " subresource"
}

var goKeywords = map[string]bool{
	"break": true, "case": true, "chan": true, "const": true, "continue": true, "default": true,
	"defer": true, "else": true, "fallthrough": true, "for": true, "func": true, "go": true,
	"goto": true, "if": true, "import": true, "interface": true, "map": true, "package": true,
	"range": true, "return": true, "select": true, "struct": true, "switch": true, "type": true, "var": true,
}

// safeIdent avoids keywords and the names generated methods already use.
func safeIdent(s string) string {
	switch {
	case goKeywords[s]:
		return s + "_"
	case s == "c", s == "ctx", s == "opts", s == "options", s == "result", s == "err":
		return s + "Obj"
	}
	return s
}
