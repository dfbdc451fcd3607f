package metadata

import (
	"context"
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/rest"
)

// Accept headers asking the server to transform its answer into object
// metadata, in protobuf or JSON, with plain JSON last for servers that
// cannot transform (the answer is then the full object).
const (
	acceptObjectMetadata = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1," +
		"application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json"
	acceptListMetadata = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1," +
		"application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"
)

// decodePartial returns the answer of a request as *T, one of
// PartialObjectMetadata and PartialObjectMetadataList.
//
// An answer of a kind the client does not know (a server that could not
// transform sent the full object) is read as JSON into T, keeping only its
// metadata; accept, when not nil, then judges whether the result plausibly
// came from an object's metadata. An answer of another known kind (a Table,
// say) is an error.
func decodePartial[T any, PT interface {
	*T
	runtime.Object
}](ctx context.Context, result rest.Result, accept func(PT) bool) (PT, error) {
	if err := result.Error(); err != nil {
		return nil, err
	}
	want := fmt.Sprintf("%T", PT(nil))
	obj, err := result.Get()
	switch {
	case err == nil:
		if typed, ok := obj.(PT); ok {
			return typed, nil
		}
		return nil, fmt.Errorf("unexpected object, expected %s but got %T", want, obj)
	case !runtime.IsNotRegisteredError(err):
		return nil, err
	}

	klog.FromContext(ctx).V(5).Info("Server did not answer with object metadata, extracting it from the full object", "want", want, "err", err)
	raw, err := result.Raw()
	if err != nil {
		return nil, err
	}
	out := PT(new(T))
	if err := json.Unmarshal(raw, out); err != nil {
		return nil, fmt.Errorf("unable to decode returned object as %s: %w", want, err)
	}
	if accept != nil && !accept(out) {
		return nil, fmt.Errorf("object does not appear to match the ObjectMeta schema: the answer has no name, generateName, uid or creationTimestamp")
	}
	out.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
	return out, nil
}

// looksLikeObjectMetadata reports whether m has any of the fields every
// stored object or object to be created has.
func looksLikeObjectMetadata(m *metav1.PartialObjectMetadata) bool {
	return m.Name != "" || m.GenerateName != "" || m.UID != "" || !m.CreationTimestamp.IsZero()
}
