package wirecodec

import (
	"reflect"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Decoders of other modules that wrap the decoder a NegotiatedSerializer
// is given. ForContext gives a sharing decoder only to a chain it knows
// end to end: a wrapper that wrote into the object after this package's
// decoder returned it (a defaulting codec, say) would write into values
// shared with objects already published. The wrappers below do nothing
// after the inner decoder returns; for each, ForContext rebuilds the same
// behaviour around the sharing variant of the inner decoder.

// foreignWrapper describes one wrapper type: where it is declared, the
// field that holds the inner decoder, and what it does around it.
type foreignWrapper struct {
	pkgPath, name, field string
	// rewrap returns inner with the wrapper's behaviour around it.
	rewrap func(inner runtime.Decoder) runtime.Decoder
}

// foreignWrappers are the wrappers ForContext sees through.
var foreignWrappers = []foreignWrapper{
	// controller-runtime's REST clients for typed objects
	// (apiutil.RESTClientForGVK) zero the target, then decode with the
	// decoder the codec factory gave them.
	{"sigs.k8s.io/controller-runtime/pkg/client/apiutil", "targetZeroingDecoder", "upstream", zeroingTarget},
}

// unwrapForeign returns the decoder d wraps and a function that wraps a
// decoder as d does, when d is one of foreignWrappers; inner is nil
// otherwise.
func unwrapForeign(d runtime.Decoder) (inner runtime.Decoder, rewrap func(runtime.Decoder) runtime.Decoder) {
	t := reflect.TypeOf(d)
	if t == nil {
		return nil, nil
	}
	for _, w := range foreignWrappers {
		if t.PkgPath() != w.pkgPath || t.Name() != w.name || t.Kind() != reflect.Struct || t.NumField() != 1 {
			continue
		}
		if inner, ok := fieldOf[runtime.Decoder](d, w.field); ok && inner != nil {
			return inner, w.rewrap
		}
	}
	return nil, nil
}

// zeroingTarget wraps inner with controller-runtime's target zeroing.
func zeroingTarget(inner runtime.Decoder) runtime.Decoder { return targetZeroing{inner} }

// targetZeroing sets the target to its zero value, then decodes into it.
type targetZeroing struct{ inner runtime.Decoder }

func (z targetZeroing) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	if into != nil {
		target := reflect.ValueOf(into).Elem()
		target.Set(reflect.Zero(target.Type()))
	}
	return z.inner.Decode(data, defaults, into)
}
