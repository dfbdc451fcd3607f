package informergen

import (
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

// Informable reports whether r gets an informer: a +genclient type with
// standard verbs that include list and watch.
func Informable(r *model.Resource) bool {
	if r.Type.Tags.Has("genclient:noVerbs") {
		return false
	}
	return r.Verbs.Has(model.VerbList) && r.Verbs.Has(model.VerbWatch)
}

// resources returns the informable resources of gv in model order.
func resources(gv *model.GroupVersion) []*model.Resource {
	var out []*model.Resource
	for _, r := range gv.Resources {
		if Informable(r) {
			out = append(out, r)
		}
	}
	return out
}

// selectedGroup is a group restricted to its versions with informers.
type selectedGroup struct {
	*model.Group
	Versions []*model.GroupVersion
}

// groups returns the client groups of u that have at least one informable
// resource, each with only its versions that have one.
func groups(u *model.Universe) []selectedGroup {
	var out []selectedGroup
	for _, g := range u.Groups {
		sg := selectedGroup{Group: g}
		for _, gv := range g.Versions {
			if len(resources(gv)) > 0 {
				sg.Versions = append(sg.Versions, gv)
			}
		}
		if len(sg.Versions) > 0 {
			out = append(out, sg)
		}
	}
	return out
}
