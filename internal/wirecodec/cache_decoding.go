package wirecodec

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/internal/intern"
)

// Decoding for a cache: an informer's reflector marks the context of its
// list and watch requests with WithCacheDecoding when the objects go
// straight into its cache, unchanged (no transform) and read-only from
// then on. The REST client passes its decoders through ForContext, which
// gives the protobuf decoders an intern.DecodeSharing for such requests
// (and a CacheDecoder its variant): equal managed-fields sets and resource
// lists decode to one shared copy instead of a new one that the cache
// would replace by a shared copy right after, which is garbage made for
// nothing.

// cacheDecodingKey is the context key of WithCacheDecoding.
type cacheDecodingKey struct{}

// WithCacheDecoding returns ctx marked so that the objects of requests
// made with it may be decoded sharing what share allows. A nil share
// returns ctx.
func WithCacheDecoding(ctx context.Context, share *intern.DecodeSharing) context.Context {
	if share == nil {
		return ctx
	}
	return context.WithValue(ctx, cacheDecodingKey{}, share)
}

// CacheDecoding returns the Sharing ctx is marked with by
// WithCacheDecoding, or nil.
func CacheDecoding(ctx context.Context) *intern.DecodeSharing {
	if ctx == nil {
		return nil
	}
	share, _ := ctx.Value(cacheDecodingKey{}).(*intern.DecodeSharing)
	return share
}

// CacheDecoder is a decoder that has a variant for objects going into an
// informer's cache unchanged, decoding with share (the unstructured
// decoder of the dynamic client).
type CacheDecoder interface {
	ForCache(share *intern.DecodeSharing) runtime.Decoder
}

// ForContext returns d, or for a request whose context is marked by
// WithCacheDecoding, d's variant that decodes sharing as the mark says:
// for a protobuf decoder of this package (bare or as the REST client
// wraps it) and a CacheDecoder.
func ForContext(ctx context.Context, d runtime.Decoder) runtime.Decoder {
	share := CacheDecoding(ctx)
	if share == nil {
		return d
	}
	switch x := d.(type) {
	case *ProtobufSerializer:
		return sharingDecoder{x, share}
	case *JSONSerializer:
		return sharingJSONDecoder{x, share}
	case runtime.WithoutVersionDecoder:
		switch inner := x.Decoder.(type) {
		case *ProtobufSerializer:
			return runtime.WithoutVersionDecoder{Decoder: sharingDecoder{inner, share}}
		case *JSONSerializer:
			return runtime.WithoutVersionDecoder{Decoder: sharingJSONDecoder{inner, share}}
		}
	case CacheDecoder:
		return x.ForCache(share)
	}
	return d
}

// sharingDecoder decodes with a ProtobufSerializer and a Sharing.
type sharingDecoder struct {
	s     *ProtobufSerializer
	share *intern.DecodeSharing
}

func (d sharingDecoder) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	return d.s.decode(data, defaults, into, d.share)
}

// sharingJSONDecoder decodes with a JSONSerializer and a DecodeSharing.
type sharingJSONDecoder struct {
	s     *JSONSerializer
	share *intern.DecodeSharing
}

func (d sharingJSONDecoder) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	return d.s.decode(data, defaults, into, d.share)
}
