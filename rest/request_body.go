package rest

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"reflect"

	"k8s.io/apimachinery/pkg/runtime"
)

// Body sets the request body from obj:
//   - string: the content of the file of that name;
//   - []byte: sent as is;
//   - io.Reader: streamed as is (such a request is never retried);
//   - runtime.Object: encoded with the request's content type, which also
//     becomes the Content-Type header; a nil object leaves the body unset.
//
// Anything else is an error.
func (r *Request) Body(obj interface{}) *Request {
	return r.step(func() error {
		var data []byte
		var err error
		switch v := obj.(type) {
		case io.Reader:
			// Streamed once; a stream is never replayed for a retry.
			r.body, r.bodyBytes = v, nil
			return nil
		case runtime.Object:
			if data, err = r.encodeObject(v); data != nil {
				r.SetHeader("Content-Type", r.contentConfig.ContentType)
			}
		case string:
			data, err = os.ReadFile(v)
		case []byte:
			// A nil slice clears the body.
			r.body, r.bodyBytes = nil, v
			return nil
		default:
			return fmt.Errorf("unknown type used for body: %+v", obj)
		}
		if err == nil && data != nil {
			r.body, r.bodyBytes = nil, data
		}
		return err
	})
}

// encodeObject encodes obj with the request's content type. A typed nil
// pointer counts as no object: nil data and no error.
func (r *Request) encodeObject(obj runtime.Object) ([]byte, error) {
	if rv := reflect.ValueOf(obj); rv.Kind() == reflect.Pointer && rv.IsNil() {
		return nil, nil
	}
	content := r.contentConfig
	if content.Negotiator == nil {
		return nil, fmt.Errorf("cannot encode %T: the client has no negotiator for %q", obj, content.ContentType)
	}
	encoder, err := content.Negotiator.Encoder(content.ContentType, nil)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := encoder.Encode(obj, &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
