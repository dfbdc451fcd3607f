package listergen

import (
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

// runtimeListers is the package of the client runtime that holds the generic
// lister helpers (ResourceIndexer), relative to the runtime module.
const runtimeListers = "listers"

// Listable reports whether r gets a lister. A lister is generated for every
// +genclient type that can be read with get and list, and for
// +genclient:noVerbs types, whose objects may still be cached locally.
func Listable(r *model.Resource) bool {
	if r.Type.Tags.Has("genclient:noVerbs") {
		return true
	}
	return r.Verbs.Has(model.VerbGet) && r.Verbs.Has(model.VerbList)
}

// GroupVersions returns the group versions that get a lister package, in
// generation order: the client inputs followed by the apply-only inputs,
// each kept only when it declares at least one listable resource.
func GroupVersions(u *model.Universe) []*model.GroupVersion {
	var out []*model.GroupVersion
	for _, gv := range append(u.GroupVersions(), u.ApplyOnly...) {
		if len(Resources(gv)) > 0 {
			out = append(out, gv)
		}
	}
	return out
}

// Resources returns the listable resources of gv in model order.
func Resources(gv *model.GroupVersion) []*model.Resource {
	var out []*model.Resource
	for _, r := range gv.Resources {
		if Listable(r) {
			out = append(out, r)
		}
	}
	return out
}
