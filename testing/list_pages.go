package testing

import (
	"encoding/base64"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// paginate cuts one page out of objs, which are sorted by namespace and
// name, according to opts.Limit and opts.Continue. It returns the page,
// the continue token of the next page ("" on the last one) and how many
// objects follow the page.
//
// A continue token names the last object returned, so paging is
// consistent with the current contents rather than with a snapshot.
func paginate(objs []runtime.Object, opts metav1.ListOptions) ([]runtime.Object, string, int, error) {
	start := 0
	if opts.Continue != "" {
		raw, err := base64.RawURLEncoding.DecodeString(opts.Continue)
		ns, name, ok := strings.Cut(string(raw), "/")
		if err != nil || !ok {
			return nil, "", 0, apierrors.NewBadRequest(fmt.Sprintf("invalid continue token %q", opts.Continue))
		}
		start = len(objs)
		for i, obj := range objs {
			m, err := meta.Accessor(obj)
			if err != nil {
				continue
			}
			if m.GetNamespace() > ns || (m.GetNamespace() == ns && m.GetName() > name) {
				start = i
				break
			}
		}
	}
	rest := objs[start:]
	if opts.Limit <= 0 || int64(len(rest)) <= opts.Limit {
		return rest, "", 0, nil
	}
	page := rest[:opts.Limit]
	last, err := meta.Accessor(page[len(page)-1])
	if err != nil {
		return rest, "", 0, nil
	}
	token := base64.RawURLEncoding.EncodeToString([]byte(last.GetNamespace() + "/" + last.GetName()))
	return page, token, len(rest) - len(page), nil
}
