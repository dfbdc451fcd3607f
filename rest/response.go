package rest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"golang.org/x/net/http2"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/internal/responsebody"
	"github.com/kubeclient/client-go/internal/wirecodec"
)

// transformResponse reads resp and turns it into a Result: the body, the
// decoder matching the response's Content-Type (the request's content type
// when the server sent none), the warnings, and for non-2xx responses an
// error that Result.Error refines from a Status body when there is one.
// decodeOnce says that the caller decodes the Result once with Into and
// drops it: a successful body may then be read into a reused buffer.
func (r *Request) transformResponse(ctx context.Context, resp *http.Response, req *http.Request, decodeOnce bool) Result {
	logger := klog.FromContext(ctx)
	var body []byte
	var reusable *responsebody.Buffer
	if resp.Body != nil {
		ok := resp.StatusCode >= http.StatusOK && resp.StatusCode <= http.StatusPartialContent
		data, pooled, err := responsebody.Read(req, resp, ok && decodeOnce)
		if err != nil {
			var streamErr http2.StreamError
			if errors.As(err, &streamErr) {
				// The server closed the stream mid-body, typically a
				// server-side timeout on a slow connection.
				logger.V(2).Info("Stream error when reading response body, may be caused by closed connection", "err", err)
				return Result{err: fmt.Errorf("stream error when reading response body, may be caused by closed connection. Please retry. Original error: %w", err), logger: logger}
			}
			logger.Error(err, "Unexpected error when reading response body")
			return Result{err: fmt.Errorf("unexpected error when reading response body. Please retry. Original error: %w", err), logger: logger}
		}
		body, reusable = data, pooled
	}
	logBody(logger, "Response Body", body)

	failed := resp.StatusCode != http.StatusSwitchingProtocols &&
		(resp.StatusCode < http.StatusOK || resp.StatusCode > http.StatusPartialContent)

	contentType := resp.Header.Get("Content-Type")
	if contentType == "" {
		contentType = r.contentConfig.ContentType
	}
	var decoder runtime.Decoder
	if contentType != "" {
		mediaType, params, err := mime.ParseMediaType(contentType)
		if err != nil {
			return Result{err: apierrors.NewInternalError(err), logger: logger}
		}
		if r.contentConfig.Negotiator != nil {
			decoder, err = r.contentConfig.Negotiator.Decoder(mediaType, params)
			decoder = wirecodec.ForContext(ctx, decoder)
		} else {
			err = runtime.NegotiateError{ContentType: mediaType}
		}
		if err != nil {
			// No decoder for this media type: the body is opaque.
			if failed {
				return Result{err: r.unstructuredErrorFromResponse(resp, req, body), logger: logger}
			}
			return Result{
				body:        body,
				contentType: contentType,
				statusCode:  resp.StatusCode,
				warnings:    handleWarnings(ctx, resp.Header, r.warningHandler),
				logger:      logger,
			}
		}
	}

	result := Result{
		body:        body,
		reusable:    reusable,
		contentType: contentType,
		statusCode:  resp.StatusCode,
		decoder:     decoder,
		logger:      logger,
	}
	if failed {
		// A generic error from the status code; Result.Error replaces it
		// with the server's Status when the body holds one.
		result.err = r.statusCodeError(resp, req, body)
	}
	result.warnings = handleWarnings(ctx, resp.Header, r.warningHandler)
	return result
}

// maxUnstructuredResponseTextBytes caps how much of a body an error quotes.
const maxUnstructuredResponseTextBytes = 2048

// unstructuredErrorFromResponse builds the error for a failed response whose
// body is not an API object, reading (a bounded part of) the body when the
// caller has not.
func (r *Request) unstructuredErrorFromResponse(resp *http.Response, req *http.Request, body []byte) error {
	if body == nil && resp.Body != nil {
		if data, err := io.ReadAll(io.LimitReader(resp.Body, maxUnstructuredResponseTextBytes)); err == nil {
			body = data
		}
	}
	return r.statusCodeError(resp, req, body)
}

// statusCodeError returns the StatusError that resp's status code implies
// (NotFound for 404, Conflict for 409 and so on) for the request's resource,
// quoting a textual body as its message and carrying Retry-After.
func (r *Request) statusCodeError(resp *http.Response, req *http.Request, body []byte) error {
	retryAfter, _ := retryAfterSeconds(resp)
	return apierrors.NewGenericServerResponse(resp.StatusCode, req.Method, r.errorGroupResource(),
		r.resourceName, quotedBody(body, isTextResponse(resp)), retryAfter, true)
}

// errorGroupResource is the group and resource an error names: none when the
// request was not built for a resource.
func (r *Request) errorGroupResource() schema.GroupResource {
	if r.resource == "" {
		return schema.GroupResource{}
	}
	return schema.GroupResource{Group: r.contentConfig.GroupVersion.Group, Resource: r.resource}
}

// quotedBody is the message a status-code error quotes: the trimmed text of
// at most maxUnstructuredResponseTextBytes of a textual body, "unknown" for
// any other body.
func quotedBody(body []byte, isText bool) string {
	if !isText {
		return "unknown"
	}
	return strings.TrimSpace(string(body[:min(len(body), maxUnstructuredResponseTextBytes)]))
}

// isTextResponse reports whether resp has a text/* media type or none.
func isTextResponse(resp *http.Response) bool {
	contentType := resp.Header.Get("Content-Type")
	if contentType == "" {
		return true
	}
	mediaType, _, err := mime.ParseMediaType(contentType)
	return err == nil && strings.HasPrefix(mediaType, "text/")
}

// retryAfterSeconds returns the Retry-After header as whole seconds, and
// whether it held a number.
func retryAfterSeconds(resp *http.Response) (int, bool) {
	h := resp.Header.Get("Retry-After")
	if h == "" {
		return 0, false
	}
	seconds, err := strconv.Atoi(h)
	if err != nil {
		return 0, false
	}
	return seconds, true
}

// truncateForLog cuts body to 1 KiB at verbosity 8, 10 KiB at 9, and not at
// all at 10.
func truncateForLog(logger klog.Logger, body string) string {
	limit := 0
	switch {
	case logger.V(10).Enabled():
		return body
	case logger.V(9).Enabled():
		limit = 10240
	case logger.V(8).Enabled():
		limit = 1024
	}
	if len(body) <= limit {
		return body
	}
	return body[:limit] + fmt.Sprintf(" [truncated %d chars]", len(body)-limit)
}
