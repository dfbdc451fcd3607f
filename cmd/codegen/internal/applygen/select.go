package applygen

import (
	"sort"

	"github.com/kubeclient/client-go/cmd/codegen/internal/layout"

	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

// selection is the set of types that get an apply configuration, and for
// each of them the resource it is the root of, if any.
type selection struct {
	u *model.Universe
	// inputs are the packages apply configurations may be generated for.
	inputs map[string]*model.GroupVersion
	types  map[*model.Type]bool
	// resources maps a resource type to its client description.
	resources map[*model.Type]*model.Resource
}

// selectTypes starts from the resources that can be applied (those with the
// apply verb, those tagged +genclient:noVerbs, and the inputs of extended
// apply methods) and adds every struct type their fields reach.
func selectTypes(u *model.Universe) *selection {
	s := &selection{u: u, inputs: map[string]*model.GroupVersion{}, types: map[*model.Type]bool{}, resources: map[*model.Type]*model.Resource{}}
	all := append(u.GroupVersions(), u.ApplyOnly...)
	for _, gv := range all {
		s.inputs[gv.Package.Path] = gv
	}
	var roots, shallow []*model.Type
	for _, gv := range all {
		for _, r := range gv.Resources {
			if r.Verbs.Has(model.VerbApply) || r.Type.Tags.Has("genclient:noVerbs") {
				roots = append(roots, r.Type)
				s.resources[r.Type] = r
			}
			for _, m := range r.Methods {
				if m.Verb != model.VerbApply {
					continue
				}
				t := u.Lookup(m.Input)
				switch {
				case t == nil:
				case t.Package == r.Type.Package:
					// A subresource type of the resource's own package
					// (the legacy apps and extensions Scale) gets a
					// configuration of its own but not of its parts.
					shallow = append(shallow, t)
				default:
					roots = append(roots, t)
				}
			}
		}
	}
	for _, t := range roots {
		s.add(t)
	}
	for _, t := range shallow {
		if s.eligible(t) {
			s.types[t] = true
			for _, f := range t.Fields {
				if f.Embedded {
					s.addRef(f.Type)
				}
			}
		}
	}
	return s
}

func (s *selection) add(t *model.Type) {
	if t == nil || s.types[t] || !s.eligible(t) {
		return
	}
	s.types[t] = true
	for _, f := range t.Fields {
		s.addRef(f.Type)
	}
}

func (s *selection) addRef(ref *model.TypeRef) {
	switch ref.Kind {
	case model.RefPointer, model.RefSlice:
		s.addRef(ref.Elem)
	case model.RefMap:
		s.addRef(ref.Elem)
	case model.RefNamed:
		s.add(s.u.Lookup(ref))
	}
}

// eligible reports whether t can have an apply configuration: a struct that
// does not marshal itself, in an input package or in a package whose apply
// configurations the client runtime already provides (see external).
func (s *selection) eligible(t *model.Type) bool {
	if t.Kind != model.KindStruct || t.CustomJSON || len(fields(t)) == 0 {
		return false
	}
	_, ok := s.inputs[t.Package.Path]
	// Types of built-in packages that are not inputs are referenced from
	// the runtime module, not generated.
	return ok || layout.External(t.Package.Path)
}

// generated reports whether t gets a file in this run.
func (s *selection) generated(t *model.Type) bool {
	_, ok := s.inputs[t.Package.Path]
	return ok && s.types[t]
}

// has reports whether the named type ref has an apply configuration.
func (s *selection) has(ref *model.TypeRef) bool {
	t := s.u.Lookup(ref)
	return t != nil && s.types[t]
}

// byPackage returns the selected types grouped by package path, each group
// sorted by name, and the sorted package paths.
func (s *selection) byPackage() ([]string, map[string][]*model.Type) {
	groups := map[string][]*model.Type{}
	for t := range s.types {
		if s.generated(t) {
			groups[t.Package.Path] = append(groups[t.Package.Path], t)
		}
	}
	var paths []string
	for p, ts := range groups {
		paths = append(paths, p)
		sort.Slice(ts, func(i, j int) bool { return ts[i].Name < ts[j].Name })
	}
	sort.Strings(paths)
	return paths, groups
}
