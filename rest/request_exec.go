package rest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/internal/decodeonce"
	"github.com/kubeclient/client-go/internal/responsebody"
	"github.com/kubeclient/client-go/internal/wirecodec"
	restwatch "github.com/kubeclient/client-go/rest/watch"
)

// httpClient returns the HTTP client requests of r are sent with.
func (r *Request) httpClient() *http.Client {
	if r.c.Client != nil {
		return r.c.Client
	}
	return http.DefaultClient
}

// checkNamespaceUse catches an explicitly empty namespace where the server
// would misread the request: creating in, or naming an object in, "".
func (r *Request) checkNamespaceUse() error {
	if !r.namespaceSet || r.namespace != "" {
		return nil
	}
	switch r.verb {
	case "POST":
		return errors.New("an empty namespace may not be set during creation")
	case "GET", "PUT", "DELETE":
		if r.resourceName != "" {
			return errors.New("an empty namespace may not be set when a resource name is provided")
		}
	}
	return nil
}

// newHTTPRequest builds the HTTP request of one attempt. Replayable bodies
// get a fresh reader and every attempt gets its own copy of the headers, so
// retries never race with a previous attempt's transport.
func (r *Request) newHTTPRequest(ctx context.Context) (*http.Request, error) {
	if r.body != nil && r.bodyBytes != nil {
		return nil, errors.New("cannot set both body and bodyBytes")
	}
	body := r.body
	if r.bodyBytes != nil {
		body = bytes.NewReader(r.bodyBytes)
	}
	req, err := http.NewRequestWithContext(withDNSLatencyTrace(ctx), r.verb, r.URL().String(), body)
	if err != nil {
		return nil, err
	}
	req.Header = r.headers.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	return req, nil
}

// retryableForIdempotentGet lets GET requests be retried after a dropped
// connection ("connection reset by peer", an unexpected EOF from a server
// shutting down, a lost HTTP/2 connection). Writes are never retried on
// transport errors since they may have been applied.
func retryableForIdempotentGet(req *http.Request, err error) bool {
	if req.Method != http.MethodGet {
		return false
	}
	return utilnet.IsConnectionReset(err) || utilnet.IsProbableEOF(err) || utilnet.IsHTTP2ConnectionLost(err)
}

// run sends the request, following retries, and calls handle with the final
// response (never with a nil response). It returns an error when no
// response was handled: a build error, throttling failure, cancellation or
// transport error.
func (r *Request) run(ctx context.Context, handle func(*http.Request, *http.Response)) error {
	start := time.Now()
	defer func() { observeRequestLatency(ctx, r, time.Since(start)) }()

	if r.err != nil {
		klog.FromContext(ctx).V(4).Info("Error in request", "err", r.err)
		return r.err
	}
	if err := r.checkNamespaceUse(); err != nil {
		return err
	}

	// Throttle before the timeout starts so a slow limiter does not eat the
	// time budget of the request itself.
	if err := r.tryThrottle(ctx); err != nil {
		return err
	}
	if r.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.timeout)
		defer cancel()
	}

	retry := r.retryFn(r.maxRetries)
	last := r.finalAttempt(ctx, retry, retryableForIdempotentGet, nil, r.noteSent)
	if last.req == nil {
		return last.notSentError(retry)
	}
	if last.resp != nil {
		handle(last.req, last.resp)
		drainAndClose(last.resp)
	}
	return retry.WrapPreviousError(last.err)
}

// noteSent records what Do and DoRaw learn from each attempt: the request
// size metric, and a 415 answer that makes later requests fall back from
// CBOR.
func (r *Request) noteSent(ctx context.Context, req *http.Request, resp *http.Response) {
	observeRequestSize(ctx, r, req)
	if resp != nil && resp.StatusCode == http.StatusUnsupportedMediaType {
		r.c.content.sawUnsupportedMediaType(req.Header.Get("Content-Type"))
	}
}

// attempt is one try of a request.
type attempt struct {
	// req is the HTTP request sent. It is nil when none could be sent: err
	// then says why, and beforeFailed whether WithRetry.Before refused.
	req          *http.Request
	resp         *http.Response // nil when err is set
	err          error
	beforeFailed bool
}

// notSentError is the error for an attempt that was not sent: a refusal
// of WithRetry.Before carries the error of the attempt before it.
func (a attempt) notSentError(retry WithRetry) error {
	if a.beforeFailed {
		return retry.WrapPreviousError(a.err)
	}
	return a.err
}

// finalAttempt sends attempts until one is final and returns it: one that
// could not be sent, one that done accepts (nil done accepts none), or one
// that retry declines to follow with another (transport errors are retried
// only when isRetryable says so). Responses of the attempts in between are
// drained and closed. noteSent, when set, sees each attempt sent before
// WithRetry.After does.
func (r *Request) finalAttempt(ctx context.Context, retry WithRetry, isRetryable IsRetryableErrorFunc,
	done func(attempt) bool, noteSent func(context.Context, *http.Request, *http.Response)) attempt {
	client := r.httpClient()
	for {
		a := attempt{}
		if a.err = retry.Before(ctx, r); a.err != nil {
			a.beforeFailed = true
			return a
		}
		var req *http.Request
		if req, a.err = r.newHTTPRequest(ctx); a.err != nil {
			return a
		}
		a.req = req
		a.resp, a.err = client.Do(req)
		if noteSent != nil {
			noteSent(ctx, req, a.resp)
		}
		retry.After(ctx, r, a.resp, a.err)

		final := (done != nil && done(a)) || !retry.IsNextRetry(ctx, r, req, a.resp, a.err, isRetryable)
		if final {
			return a
		}
		drainAndClose(a.resp)
	}
}

// Do sends the request and reads the whole response into a Result.
//
// The errors are *errors.StatusError (or *errors.UnexpectedObjectError) for
// responses the server sent, and the HTTP client's own errors otherwise.
func (r *Request) Do(ctx context.Context) Result {
	logger := klog.FromContext(ctx)
	if r.body == nil {
		logBody(logger, "Request Body", r.bodyBytes)
	}
	// The generated clients' List marks ctx when it decodes the result
	// once and drops it (see the package documentation).
	decodeOnce := decodeonce.Marked(ctx, r)
	var result Result
	err := r.run(ctx, func(req *http.Request, resp *http.Response) {
		result = r.transformResponse(ctx, resp, req, decodeOnce)
	})
	if err != nil {
		return Result{err: err, logger: logger}
	}
	if result.err == nil || len(result.body) > 0 {
		observeResponseSize(ctx, r, len(result.body))
	}
	return result
}

// DoRaw sends the request and returns the response body as is. Non-2xx
// responses still become errors.
func (r *Request) DoRaw(ctx context.Context) ([]byte, error) {
	logger := klog.FromContext(ctx)
	if r.body == nil {
		logBody(logger, "Request Body", r.bodyBytes)
	}
	var body []byte
	var bodyErr error
	err := r.run(ctx, func(req *http.Request, resp *http.Response) {
		body, _, bodyErr = responsebody.Read(req, resp, false)
		logBody(logger, "Response Body", body)
		if resp.StatusCode < http.StatusOK || resp.StatusCode > http.StatusPartialContent {
			bodyErr = r.unstructuredErrorFromResponse(resp, req, body)
		}
	})
	if err != nil {
		return nil, err
	}
	if bodyErr == nil || len(body) > 0 {
		observeResponseSize(ctx, r, len(body))
	}
	return body, bodyErr
}

// Stream sends the request and returns the body of a 2xx response for the
// caller to read and close. Other responses become errors: the Status the
// server sent, or an error naming the status code and body.
func (r *Request) Stream(ctx context.Context) (io.ReadCloser, error) {
	if r.body == nil {
		logBody(klog.FromContext(ctx), "Request Body", r.bodyBytes)
	}
	if r.err != nil {
		return nil, r.err
	}
	if err := r.tryThrottle(ctx); err != nil {
		return nil, err
	}
	// Transport errors are never retried here, only responses asking for
	// it with Retry-After.
	last := r.finalAttempt(ctx, r.retryFn(r.maxRetries), neverRetryError, func(a attempt) bool {
		return a.err != nil || isSuccess(a.resp)
	}, nil)
	switch {
	case last.err != nil:
		return nil, last.err
	case isSuccess(last.resp):
		handleWarnings(ctx, last.resp.Header, r.warningHandler)
		return last.resp.Body, nil
	}
	result := r.transformResponse(ctx, last.resp, last.req, false)
	last.resp.Body.Close()
	if err := result.Error(); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("%d while accessing %v: %s", result.statusCode, r.URL(), string(result.body))
}

// isSuccess reports whether resp has a 2xx status.
func isSuccess(resp *http.Response) bool {
	return resp.StatusCode >= 200 && resp.StatusCode < 300
}

// Watch opens a watch on the request's location and returns the stream of
// events, decoded with the stream decoder negotiated for the response's
// Content-Type. Watches are not rate limited. Events that cannot be decoded
// end the watch with a watch.Error event carrying a metav1.Status.
//
// A stream that ends between events ends the watch normally: the result
// channel closes. A JSON or protobuf stream that ends, or whose connection
// breaks, in the middle of an event closes the channel the same way, as
// client-go's does; WatchCutError then returns the cut.
func (r *Request) Watch(ctx context.Context) (watch.Interface, error) {
	if r.body == nil {
		logBody(klog.FromContext(ctx), "Request Body", r.bodyBytes)
	}
	if r.err != nil {
		return nil, r.err
	}
	// A watch stream tolerates partial reads, so dropped or timed out
	// connections may be retried whatever the verb.
	retryable := IsRetryableErrorFunc(func(_ *http.Request, err error) bool {
		return utilnet.IsProbableEOF(err) || utilnet.IsTimeout(err)
	})
	retry := r.retryFn(r.maxRetries)
	opened := func(a attempt) bool { return a.err == nil && a.resp.StatusCode == http.StatusOK }
	last := r.finalAttempt(ctx, retry, retryable, opened, nil)
	switch {
	case last.req == nil:
		return nil, last.notSentError(retry)
	case opened(last):
		return r.newStreamWatcher(ctx, last.resp)
	case last.err != nil && retryable(last.req, last.err):
		// Out of retries on a dropped connection: the caller sees a watch
		// that ends at once and starts over.
		return watch.NewEmptyWatch(), nil
	case last.err != nil:
		return nil, retry.WrapPreviousError(last.err)
	}
	result := r.transformResponse(ctx, last.resp, last.req, false)
	drainAndClose(last.resp)
	if err := result.Error(); err != nil {
		return nil, retry.WrapPreviousError(err)
	}
	return nil, retry.WrapPreviousError(fmt.Errorf("for request %s, got status: %v", r.URL(), last.resp.StatusCode))
}

// newStreamWatcher turns a 200 watch response into a watch.Interface.
func (r *Request) newStreamWatcher(ctx context.Context, resp *http.Response) (watch.Interface, error) {
	logger := klog.FromContext(ctx)
	contentType := resp.Header.Get("Content-Type")
	mediaType, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		logger.V(4).Info("Unexpected content type from the server", "contentType", contentType, "err", err)
	}
	if r.contentConfig.Negotiator == nil {
		resp.Body.Close()
		return nil, fmt.Errorf("no negotiator configured to decode a watch stream of type %q", contentType)
	}
	objectDecoder, streamSerializer, framer, err := r.contentConfig.Negotiator.StreamDecoder(mediaType, params)
	if err != nil {
		resp.Body.Close()
		return nil, err
	}
	objectDecoder = wirecodec.ForWatch(ctx, objectDecoder)
	handleWarnings(ctx, resp.Header, r.warningHandler)

	events := responsebody.NewEvents(resp.Body, mediaType, framer, streamSerializer)
	return &streamWatch{
		StreamWatcher: watch.NewStreamWatcherWithLogger(
			logger,
			restwatch.NewDecoder(events, objectDecoder),
			// 500: the cause of a decoding failure is unknown.
			apierrors.NewClientErrorReporter(http.StatusInternalServerError, r.verb, "ClientWatchDecoding"),
		),
		events: events,
	}, nil
}
