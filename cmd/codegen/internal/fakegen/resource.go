package fakegen

import (
	"fmt"

	"github.com/kubeclient/client-go/cmd/codegen/internal/gofile"
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

// resourceFile writes fake_<kind>.go: the fake client of one resource over
// gentype's fake clients, and its extended methods.
func (g *typedGenerator) resourceFile(r *model.Resource) (*gofile.File, error) {
	f := gofile.New("fake")
	api := f.Import(g.gv.Package.Path)
	typed := f.Import(g.l.Import(g.l.TypedRel(g.gv)))
	gentype := f.Import(g.l.Runtime("gentype"))
	obj := "*" + api + "." + r.Kind
	needList := r.Verbs.Has(model.VerbList)
	needApply := r.Verbs.Has(model.VerbApply) || r.Verbs.Has(model.VerbApplyStatus)
	if needList && r.List == nil {
		return nil, fmt.Errorf("%s has the list verb but the package declares no %sList", r.Kind, r.Kind)
	}
	var listType, applyType string
	if needList {
		listType = "*" + api + "." + r.List.Name
	}
	if needApply {
		applyType = "*" + f.Import(g.l.ApplyImport(g.gv.Package.Path)) + "." + r.Kind + "ApplyConfiguration"
	}
	var embedded, ctor string
	switch {
	case needList && needApply:
		embedded = fmt.Sprintf("%s.FakeClientWithListAndApply[%s, %s, %s]", gentype, obj, listType, applyType)
		ctor = fmt.Sprintf("%s.NewFakeClientWithListAndApply[%s, %s, %s]", gentype, obj, listType, applyType)
	case needList:
		embedded = fmt.Sprintf("%s.FakeClientWithList[%s, %s]", gentype, obj, listType)
		ctor = fmt.Sprintf("%s.NewFakeClientWithList[%s, %s]", gentype, obj, listType)
	case needApply:
		embedded = fmt.Sprintf("%s.FakeClientWithApply[%s, %s]", gentype, obj, applyType)
		ctor = fmt.Sprintf("%s.NewFakeClientWithApply[%s, %s]", gentype, obj, applyType)
	default:
		embedded = fmt.Sprintf("%s.FakeClient[%s]", gentype, obj)
		ctor = fmt.Sprintf("%s.NewFakeClient[%s]", gentype, obj)
	}
	impl := fakeTypeName(r)
	group := "Fake" + groupClientName(g.gv)
	f.Printf("// %s implements %s.%sInterface in memory.\ntype %s struct {\n\t*%s\n\tFake *%s\n}\n\n", impl, typed, r.Kind, impl, embedded, group)
	nsParam, nsArg := "", `""`
	if r.Namespaced {
		nsParam, nsArg = ", namespace string", "namespace"
	}
	f.Printf("// new%s returns the fake %s client of fake.\n", model.UpperFirst(impl), r.Resource)
	f.Printf("func new%s(fake *%s%s) %s.%sInterface {\n\treturn &%s{\n\t\t%s(\n", model.UpperFirst(impl), group, nsParam, typed, r.Kind, impl, ctor)
	f.Printf("\t\t\tfake.Fake,\n\t\t\t%s,\n\t\t\t%s.SchemeGroupVersion.WithResource(%q),\n\t\t\t%s.SchemeGroupVersion.WithKind(%q),\n", nsArg, api, r.Resource, api, r.Kind)
	f.Printf("\t\t\tfunc() %s { return &%s.%s{} },\n", obj, api, r.Kind)
	if needList {
		f.Printf("\t\t\tfunc() %s { return &%s.%s{} },\n", listType, api, r.List.Name)
		f.Printf("\t\t\tfunc(dst, src %s) { dst.ListMeta = src.ListMeta },\n", listType)
		f.Printf("\t\t\tfunc(list %s) []%s { return %s.ToPointerSlice(list.Items) },\n", listType, obj, gentype)
		f.Printf("\t\t\tfunc(list %s, items []%s) { list.Items = %s.FromPointerSlice(items) },\n", listType, obj, gentype)
	}
	f.Printf("\t\t),\n\t\tfake,\n\t}\n}\n\n")
	for _, m := range r.Methods {
		if err := g.extendedMethod(f, r, impl, m); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// extendedMethod writes the fake of a +genclient:method: it records the
// matching (sub)resource action and returns what the reactors answer.
func (g *typedGenerator) extendedMethod(f *gofile.File, r *model.Resource, impl string, m *model.ExtendedMethod) error {
	ctx := f.Import("context")
	metav1 := f.Import("k8s.io/apimachinery/pkg/apis/meta/v1")
	testing := f.Import(g.l.Runtime("testing"))
	result := f.Import(m.Result.PkgPath) + "." + m.Result.Name
	input := f.Import(m.Input.PkgPath) + "." + m.Input.Name
	sub := m.Subresource
	root := !r.Namespaced
	nameParam := ""
	if sub != "" {
		nameParam = "name string, "
	}
	var params, action string
	switch m.Verb {
	case model.VerbGet:
		params = fmt.Sprintf("name string, options %s.GetOptions", metav1)
		switch {
		case sub == "" && root:
			action = fmt.Sprintf("%s.NewRootGetActionWithOptions(c.Resource(), name, options)", testing)
		case sub == "":
			action = fmt.Sprintf("%s.NewGetActionWithOptions(c.Resource(), c.Namespace(), name, options)", testing)
		case root:
			action = fmt.Sprintf("%s.NewRootGetSubresourceActionWithOptions(c.Resource(), %q, name, options)", testing, sub)
		default:
			action = fmt.Sprintf("%s.NewGetSubresourceActionWithOptions(c.Resource(), c.Namespace(), %q, name, options)", testing, sub)
		}
	case model.VerbCreate:
		params = fmt.Sprintf("%sin *%s, opts %s.CreateOptions", nameParam, input, metav1)
		switch {
		case sub == "" && root:
			action = fmt.Sprintf("%s.NewRootCreateActionWithOptions(c.Resource(), in, opts)", testing)
		case sub == "":
			action = fmt.Sprintf("%s.NewCreateActionWithOptions(c.Resource(), c.Namespace(), in, opts)", testing)
		case root:
			action = fmt.Sprintf("%s.NewRootCreateSubresourceActionWithOptions(c.Resource(), name, %q, in, opts)", testing, sub)
		default:
			action = fmt.Sprintf("%s.NewCreateSubresourceActionWithOptions(c.Resource(), name, %q, c.Namespace(), in, opts)", testing, sub)
		}
	case model.VerbUpdate:
		params = fmt.Sprintf("%sin *%s, opts %s.UpdateOptions", nameParam, input, metav1)
		switch {
		case sub == "" && root:
			action = fmt.Sprintf("%s.NewRootUpdateActionWithOptions(c.Resource(), in, opts)", testing)
		case sub == "":
			action = fmt.Sprintf("%s.NewUpdateActionWithOptions(c.Resource(), c.Namespace(), in, opts)", testing)
		case root:
			action = fmt.Sprintf("%s.NewRootUpdateSubresourceActionWithOptions(c.Resource(), %q, in, opts)", testing, sub)
		default:
			action = fmt.Sprintf("%s.NewUpdateSubresourceActionWithOptions(c.Resource(), %q, c.Namespace(), in, opts)", testing, sub)
		}
	case model.VerbApply:
		return g.applyMethod(f, r, impl, m)
	default:
		return fmt.Errorf("method %s: the fake generator does not support verb %q", m.Name, m.Verb)
	}
	f.Printf("// %s records a %s of the %s and returns the reactors' answer.\n", m.Name, m.Verb, subresourceLabel(m))
	f.Printf("func (c *%s) %s(ctx %s.Context, %s) (*%s, error) {\n", impl, m.Name, ctx, params, result)
	f.Printf("\tempty := &%s{}\n\tobj, err := c.Fake.Invokes(%s, empty)\n", result, action)
	f.Printf("\tif obj == nil {\n\t\treturn empty, err\n\t}\n\treturn obj.(*%s), err\n}\n\n", result)
	return nil
}

// applyMethod writes the fake of an apply extended method: a recorded
// apply patch of the (sub)resource.
func (g *typedGenerator) applyMethod(f *gofile.File, r *model.Resource, impl string, m *model.ExtendedMethod) error {
	ctx := f.Import("context")
	metav1 := f.Import("k8s.io/apimachinery/pkg/apis/meta/v1")
	testing := f.Import(g.l.Runtime("testing"))
	json := f.Import("encoding/json")
	fmtPkg := f.Import("fmt")
	types := f.Import("k8s.io/apimachinery/pkg/types")
	result := f.Import(m.Result.PkgPath) + "." + m.Result.Name
	input := f.Import(g.l.ApplyImportIn(g.u, m.Input.PkgPath)) + "." + m.Input.Name + "ApplyConfiguration"
	params := fmt.Sprintf("in *%s, opts %s.ApplyOptions", input, metav1)
	nameExpr := "*in.Name"
	if m.Subresource != "" {
		params = "name string, " + params
		nameExpr = "name"
	}
	var subArgs string
	if m.Subresource != "" {
		subArgs = fmt.Sprintf(", %q", m.Subresource)
	}
	action := fmt.Sprintf("%s.NewPatchSubresourceActionWithOptions(c.Resource(), c.Namespace(), %s, %s.ApplyPatchType, data, opts.ToPatchOptions()%s)", testing, nameExpr, types, subArgs)
	if !r.Namespaced {
		action = fmt.Sprintf("%s.NewRootPatchSubresourceActionWithOptions(c.Resource(), %s, %s.ApplyPatchType, data, opts.ToPatchOptions()%s)", testing, nameExpr, types, subArgs)
	}
	f.Printf("// %s records an apply patch of the %s and returns the reactors' answer.\n", m.Name, subresourceLabel(m))
	f.Printf("func (c *%s) %s(ctx %s.Context, %s) (*%s, error) {\n", impl, m.Name, ctx, params, result)
	f.Printf("\tif in == nil {\n\t\treturn nil, %s.Errorf(\"%s: the apply configuration must not be nil\")\n\t}\n", fmtPkg, m.Name)
	if m.Subresource == "" {
		f.Printf("\tif in.Name == nil {\n\t\treturn nil, %s.Errorf(\"%s: the apply configuration must set metadata.name\")\n\t}\n", fmtPkg, m.Name)
	}
	f.Printf("\tdata, err := %s.Marshal(in)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n", json)
	f.Printf("\tempty := &%s{}\n\tobj, err := c.Fake.Invokes(%s, empty)\n", result, action)
	f.Printf("\tif obj == nil {\n\t\treturn empty, err\n\t}\n\treturn obj.(*%s), err\n}\n\n", result)
	return nil
}

func subresourceLabel(m *model.ExtendedMethod) string {
	if m.Subresource == "" {
		return "resource"
	}
	return m.Subresource + " subresource"
}
