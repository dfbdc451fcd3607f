package wirecodec

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/internal/protodecode/wire"
)

// Decoding for a cache: an informer's reflector marks the context of its
// list and watch requests with WithCacheDecoding when the objects go
// straight into its cache, unchanged (no transform) and read-only from
// then on. The REST client passes its decoders through ForContext, which
// gives the protobuf decoders a wire.Sharing for such requests: equal
// managed-fields sets and resource lists decode to one shared copy
// instead of a new one that the cache would replace by a shared copy
// right after, which is garbage made for nothing.

// cacheDecodingKey is the context key of WithCacheDecoding.
type cacheDecodingKey struct{}

// WithCacheDecoding returns ctx marked so that the objects of requests
// made with it may be decoded sharing what share allows. A nil share
// returns ctx.
func WithCacheDecoding(ctx context.Context, share *wire.Sharing) context.Context {
	if share == nil {
		return ctx
	}
	return context.WithValue(ctx, cacheDecodingKey{}, share)
}

// CacheDecoding returns the Sharing ctx is marked with by
// WithCacheDecoding, or nil.
func CacheDecoding(ctx context.Context) *wire.Sharing {
	if ctx == nil {
		return nil
	}
	share, _ := ctx.Value(cacheDecodingKey{}).(*wire.Sharing)
	return share
}

// ForContext returns d, or for a request whose context is marked by
// WithCacheDecoding and a protobuf decoder of this package, that decoder
// sharing as the mark says.
func ForContext(ctx context.Context, d runtime.Decoder) runtime.Decoder {
	share := CacheDecoding(ctx)
	if share == nil {
		return d
	}
	switch x := d.(type) {
	case *ProtobufSerializer:
		return sharingDecoder{x, share}
	case runtime.WithoutVersionDecoder:
		if p, ok := x.Decoder.(*ProtobufSerializer); ok {
			return runtime.WithoutVersionDecoder{Decoder: sharingDecoder{p, share}}
		}
	}
	return d
}

// sharingDecoder decodes with a ProtobufSerializer and a Sharing.
type sharingDecoder struct {
	s     *ProtobufSerializer
	share *wire.Sharing
}

func (d sharingDecoder) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	return d.s.decode(data, defaults, into, d.share)
}
