package wirecodec

import (
	"context"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/listitems"
	"github.com/kubeclient/client-go/internal/protodecode"
	"github.com/kubeclient/client-go/internal/protodecode/wire"
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
	return forRequest(ctx, d, false)
}

// ForWatch is ForContext for the decoder of a watch stream's objects,
// which decodes one event at a time on the stream's goroutine: its
// protobuf decoder keeps the strings it met from one event to the next
// (see wire.StreamStrings).
func ForWatch(ctx context.Context, d runtime.Decoder) runtime.Decoder {
	return forRequest(ctx, d, true)
}

func forRequest(ctx context.Context, d runtime.Decoder, watch bool) runtime.Decoder {
	share := CacheDecoding(ctx)
	if share == nil {
		return d
	}
	c := protodecode.CacheDecode{Sharing: share, Items: listitems.FromContext(ctx)}
	if shared := forCache(d, c, watch); shared != nil {
		noteShared(ctx)
		return shared
	}
	return d
}

// forCache returns d's variant decoding with c.Sharing, or nil when d has
// none. Its protobuf decoders record the items of lists in c.Items (see
// package listitems) and, for a watch, keep the strings met last.
func forCache(d runtime.Decoder, c protodecode.CacheDecode, watch bool) runtime.Decoder {
	switch x := d.(type) {
	case *ProtobufSerializer:
		return newSharingDecoder(x, c, watch)
	case *JSONSerializer:
		return sharingJSONDecoder{x, c.Sharing}
	case runtime.WithoutVersionDecoder:
		switch inner := x.Decoder.(type) {
		case *ProtobufSerializer:
			return runtime.WithoutVersionDecoder{Decoder: newSharingDecoder(inner, c, watch)}
		case *JSONSerializer:
			return runtime.WithoutVersionDecoder{Decoder: sharingJSONDecoder{inner, c.Sharing}}
		}
	case CacheDecoder:
		return x.ForCache(c.Sharing)
	}
	if inner, rewrap := unwrapForeign(d); inner != nil {
		if shared := forCache(inner, c, watch); shared != nil {
			return rewrap(shared)
		}
	}
	return nil
}

// sharingDecoder decodes with a ProtobufSerializer for an informer's
// cache, as c says.
type sharingDecoder struct {
	s *ProtobufSerializer
	c protodecode.CacheDecode
}

// newSharingDecoder returns the sharing decoder of s; for a watch, one
// with strings of its own to keep from one event to the next.
func newSharingDecoder(s *ProtobufSerializer, c protodecode.CacheDecode, watch bool) sharingDecoder {
	if watch {
		c.Strings = new(wire.StreamStrings)
	}
	return sharingDecoder{s, c}
}

func (d sharingDecoder) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	return d.s.decode(data, defaults, into, d.c)
}

// sharingJSONDecoder decodes with a JSONSerializer and a DecodeSharing.
type sharingJSONDecoder struct {
	s     *JSONSerializer
	share *intern.DecodeSharing
}

func (d sharingJSONDecoder) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	return d.s.decode(data, defaults, into, d.share)
}
