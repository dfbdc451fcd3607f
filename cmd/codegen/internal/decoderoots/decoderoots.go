// Package decoderoots holds what the decoder generators (jsondecodegen,
// protodecodegen) share: resolving their root types and naming the
// identifiers of an API package.
package decoderoots

import (
	"fmt"
	"path"
	"strings"

	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

// Resolve returns the root types named by roots: an API package stands
// for each of its struct types with DeepCopyObject, importpath.TypeName for
// that struct type. want, if not nil, further selects the types (a
// generator that needs a method, say). gen names the generator in errors.
func Resolve(u *model.Universe, roots []string, gen string, want func(*model.Type) bool) ([]*model.Type, error) {
	if want == nil {
		want = func(*model.Type) bool { return true }
	}
	var out []*model.Type
	for _, r := range roots {
		pkgPath, typeName := r, ""
		if i := strings.LastIndex(r, "."); i > strings.LastIndex(r, "/") {
			pkgPath, typeName = r[:i], r[i+1:]
		}
		p := u.Packages[pkgPath]
		if p == nil {
			return nil, fmt.Errorf("%s: package %s was not loaded (add it to the inputs)", gen, pkgPath)
		}
		if typeName != "" {
			t := p.Types[typeName]
			if t == nil || t.Kind != model.KindStruct {
				return nil, fmt.Errorf("%s: %s is not a struct type", gen, r)
			}
			if want(t) {
				out = append(out, t)
			}
			continue
		}
		for _, t := range p.SortedTypes() {
			if t.Kind == model.KindStruct && !t.Alias && t.Methods["DeepCopyObject"] && want(t) {
				out = append(out, t)
			}
		}
	}
	return out, nil
}

// Ident is the identifier part for a package: corev1, metav1, resource.
func Ident(pkgPath string) string {
	base := path.Base(pkgPath)
	if len(base) > 1 && base[0] == 'v' && base[1] >= '0' && base[1] <= '9' {
		base = path.Base(path.Dir(pkgPath)) + base
	}
	return strings.NewReplacer("-", "", ".", "", "_", "").Replace(base)
}
