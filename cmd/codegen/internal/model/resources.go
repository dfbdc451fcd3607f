package model

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// newGroupVersion builds the GroupVersion of an input package from its
// +groupName/+groupGoName package tags and its +genclient types.
func newGroupVersion(u *Universe, p *Package) (*GroupVersion, error) {
	// The group name comes from +groupName, else from the GroupName
	// constant of register.go, else from the parent directory.
	name, ok := p.Tags.Value("groupName"), p.Tags.Has("groupName")
	if !ok {
		name, ok = p.StringConsts["GroupName"]
	}
	if !ok {
		name = path.Base(path.Dir(p.Path))
	}
	goName := p.Tags.Value("groupGoName")
	if goName == "" {
		first, _, _ := strings.Cut(name, ".")
		if first == "" {
			first = "core"
		}
		goName = UpperFirst(first)
	}
	g := &Group{Name: name, GoName: goName, PackageName: path.Base(path.Dir(p.Path))}
	gv := &GroupVersion{Group: g, Version: p.Name, Package: p}
	if path.Base(p.Path) != p.Name {
		gv.Version = path.Base(p.Path)
	}
	for _, t := range p.SortedTypes() {
		if !t.Tags.Has("genclient") || t.Kind != KindStruct {
			continue
		}
		r, err := newResource(p, t)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %v", p.Path, t.Name, err)
		}
		gv.Resources = append(gv.Resources, r)
	}
	return gv, nil
}

func newResource(p *Package, t *Type) (*Resource, error) {
	r := &Resource{
		Type:       t,
		Kind:       t.Name,
		Plural:     Plural(t.Name),
		Namespaced: !t.Tags.Has("genclient:nonNamespaced"),
		List:       p.Types[t.Name+"List"],
	}
	r.Resource = strings.ToLower(r.Plural)
	if v := t.Tags.Value("resourceName"); v != "" {
		r.Resource = v
	}
	r.HasStatus = t.Field("Status") != nil && !t.Tags.Has("genclient:noStatus")

	verbs := VerbSet{}
	switch {
	case t.Tags.Has("genclient:noVerbs"):
	case t.Tags.Has("genclient:onlyVerbs"):
		for _, v := range splitList(t.Tags.Value("genclient:onlyVerbs")) {
			if !isVerb(v) {
				return nil, fmt.Errorf("+genclient:onlyVerbs names unknown verb %q", v)
			}
			verbs[v] = true
		}
	default:
		for _, v := range AllVerbs {
			verbs[v] = true
		}
		for _, v := range splitList(t.Tags.Value("genclient:skipVerbs")) {
			if !isVerb(v) {
				return nil, fmt.Errorf("+genclient:skipVerbs names unknown verb %q", v)
			}
			delete(verbs, v)
		}
	}
	if !r.HasStatus {
		delete(verbs, VerbUpdateStatus)
		delete(verbs, VerbApplyStatus)
	}
	r.Verbs = verbs

	for _, spec := range t.Tags["genclient:method"] {
		m, err := parseMethod(p, t, spec)
		if err != nil {
			return nil, err
		}
		r.Methods = append(r.Methods, m)
	}
	return r, nil
}

// parseMethod parses "Name,verb=update,subresource=scale,input=pkg.Type,result=pkg.Type".
func parseMethod(p *Package, t *Type, spec string) (*ExtendedMethod, error) {
	parts := splitList(spec)
	if len(parts) == 0 || strings.Contains(parts[0], "=") {
		return nil, fmt.Errorf("+genclient:method=%s: the method name must come first", spec)
	}
	m := &ExtendedMethod{Name: parts[0], Input: t.Ref(), Result: t.Ref()}
	for _, kv := range parts[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("+genclient:method=%s: %q is not key=value", spec, kv)
		}
		switch k {
		case "verb":
			m.Verb = v
		case "subresource":
			m.Subresource = v
		case "input":
			m.Input = qualifiedRef(p, v)
		case "result":
			m.Result = qualifiedRef(p, v)
		default:
			return nil, fmt.Errorf("+genclient:method=%s: unknown key %q", spec, k)
		}
	}
	switch m.Verb {
	case VerbGet, VerbUpdate, VerbCreate, VerbApply, VerbList, VerbDelete, VerbPatch, VerbWatch:
	default:
		return nil, fmt.Errorf("+genclient:method=%s: unsupported verb %q", spec, m.Verb)
	}
	return m, nil
}

// qualifiedRef resolves "Scale" (same package) or "k8s.io/api/autoscaling/v1.Scale".
func qualifiedRef(p *Package, s string) *TypeRef {
	if i := strings.LastIndex(s, "."); i > 0 && strings.Contains(s[:i], "/") {
		return &TypeRef{Kind: RefNamed, PkgPath: s[:i], Name: s[i+1:]}
	}
	return &TypeRef{Kind: RefNamed, PkgPath: p.Path, Name: s}
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func isVerb(v string) bool {
	for _, known := range AllVerbs {
		if known == v {
			return true
		}
	}
	return false
}

// Lookup returns the named type ref points at, or nil when it is not loaded.
func (u *Universe) Lookup(ref *TypeRef) *Type {
	if ref == nil || ref.Kind != RefNamed {
		return nil
	}
	for depth := 0; depth < 8; depth++ {
		p := u.Packages[ref.PkgPath]
		if p == nil {
			return nil
		}
		t := p.Types[ref.Name]
		if t == nil || !t.Alias || t.Underlying == nil || t.Underlying.Kind != RefNamed {
			return t
		}
		ref = t.Underlying
	}
	return nil
}

// GroupVersions returns every group version of the universe in group order.
func (u *Universe) GroupVersions() []*GroupVersion {
	var out []*GroupVersion
	for _, g := range u.Groups {
		out = append(out, g.Versions...)
	}
	return out
}

// SortedPackagePaths returns the import paths of all parsed packages.
func (u *Universe) SortedPackagePaths() []string {
	var out []string
	for p := range u.Packages {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// IsInput reports whether the package at path is one of the input group
// versions, with or without a client.
func (u *Universe) IsInput(path string) bool {
	for _, gv := range append(u.GroupVersions(), u.ApplyOnly...) {
		if gv.Package.Path == path {
			return true
		}
	}
	return false
}
