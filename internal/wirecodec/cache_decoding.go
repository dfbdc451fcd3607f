package wirecodec

import (
	"context"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/listitems"
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

// SharedDecodes tells an informer whether its marked requests were decoded
// sharing: whether ForContext gave a sharing decoder to one of them. When
// it did not (the informer's ListerWatcher does not pass the context on to
// this library's REST client, or the client's serializer is not one
// ForContext knows), the objects the informer receives were not decoded
// sharing, and its cache makes a shared copy of each. A SharedDecodes is
// safe for concurrent use.
type SharedDecodes struct{ seen atomic.Bool }

// Seen reports whether a request marked with s got a sharing decoder.
func (s *SharedDecodes) Seen() bool { return s != nil && s.seen.Load() }

// sharedDecodesKey is the context key of WithSharedDecodes.
type sharedDecodesKey struct{}

// WithSharedDecodes returns ctx whose requests report to s whether they
// get a sharing decoder (see ForContext).
func WithSharedDecodes(ctx context.Context, s *SharedDecodes) context.Context {
	return context.WithValue(ctx, sharedDecodesKey{}, s)
}

// noteShared records on ctx's SharedDecodes, if any, that its request got
// a sharing decoder.
func noteShared(ctx context.Context) {
	if s, _ := ctx.Value(sharedDecodesKey{}).(*SharedDecodes); s != nil && !s.seen.Load() {
		s.seen.Store(true)
	}
}

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
// for a decoder of this package (bare, as the REST client wraps it, or
// inside a wrapper foreign_wrappers.go knows) and a CacheDecoder. It reports a sharing decoder to the
// context's SharedDecodes.
func ForContext(ctx context.Context, d runtime.Decoder) runtime.Decoder {
	share := CacheDecoding(ctx)
	if share == nil {
		return d
	}
	if shared := forCache(d, share, listitems.FromContext(ctx)); shared != nil {
		noteShared(ctx)
		return shared
	}
	return d
}

// forCache returns d's variant decoding with share, or nil when d has
// none. Its protobuf decoders record the items of lists in items (see
// package listitems).
func forCache(d runtime.Decoder, share *intern.DecodeSharing, items *listitems.Recorder) runtime.Decoder {
	switch x := d.(type) {
	case *ProtobufSerializer:
		return sharingDecoder{x, share, items}
	case *JSONSerializer:
		return sharingJSONDecoder{x, share}
	case runtime.WithoutVersionDecoder:
		switch inner := x.Decoder.(type) {
		case *ProtobufSerializer:
			return runtime.WithoutVersionDecoder{Decoder: sharingDecoder{inner, share, items}}
		case *JSONSerializer:
			return runtime.WithoutVersionDecoder{Decoder: sharingJSONDecoder{inner, share}}
		}
	case CacheDecoder:
		return x.ForCache(share)
	}
	if inner, rewrap := unwrapForeign(d); inner != nil {
		if shared := forCache(inner, share, items); shared != nil {
			return rewrap(shared)
		}
	}
	return nil
}

// sharingDecoder decodes with a ProtobufSerializer and a Sharing,
// recording the items of lists in items when it is not nil.
type sharingDecoder struct {
	s     *ProtobufSerializer
	share *intern.DecodeSharing
	items *listitems.Recorder
}

func (d sharingDecoder) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	return d.s.decode(data, defaults, into, d.share, d.items)
}

// sharingJSONDecoder decodes with a JSONSerializer and a DecodeSharing.
type sharingJSONDecoder struct {
	s     *JSONSerializer
	share *intern.DecodeSharing
}

func (d sharingJSONDecoder) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	return d.s.decode(data, defaults, into, d.share)
}
