package rest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"k8s.io/klog/v2"
)

// IsRetryableErrorFunc decides whether a transport error (no HTTP response
// was received) for request may be retried. Do, DoRaw, Stream and Watch each
// use their own.
type IsRetryableErrorFunc func(request *http.Request, err error) bool

// IsErrorRetryable calls r.
func (r IsRetryableErrorFunc) IsErrorRetryable(request *http.Request, err error) bool {
	return r(request, err)
}

// neverRetryError retries no transport error.
var neverRetryError = IsRetryableErrorFunc(func(*http.Request, error) bool { return false })

// WithRetry drives the retry loop of one request. It is not safe for
// concurrent use.
type WithRetry interface {
	// IsNextRetry counts an attempt and reports whether another one should
	// be made: only while the retry budget lasts, only when the body can
	// be sent again, and only for a 429 or 5xx response carrying a
	// Retry-After header or a transport error that f accepts.
	//
	// restReq is the request being run, httpReq the attempt sent, resp the
	// response (nil when err is set), f the transport error policy.
	IsNextRetry(ctx context.Context, restReq *Request, httpReq *http.Request, resp *http.Response, err error, f IsRetryableErrorFunc) bool

	// Before runs before every attempt, the first included: it waits out
	// backoff and Retry-After delays and passes the rate limiter for retries.
	// An error aborts the request.
	Before(ctx context.Context, r *Request) error

	// After runs right after every attempt.
	After(ctx context.Context, r *Request, resp *http.Response, err error)

	// WrapPreviousError adds the error of the attempt before the last to
	// finalErr. The result unwraps to what finalErr unwraps to (or to
	// finalErr) and matches the same errors.Is targets.
	WrapPreviousError(finalErr error) (err error)
}

// RetryAfter describes the retry about to be made.
type RetryAfter struct {
	// Wait is how long the server asked us to wait (its Retry-After header
	// in seconds).
	Wait time.Duration

	// Attempt is the number of the attempt that triggered this retry.
	Attempt int

	// Reason says why the request is retried.
	Reason string
}

// requestRetryFunc creates the retry policy of one request execution from
// the request's MaxRetries.
type requestRetryFunc func(maxRetries int) WithRetry

func defaultRequestRetryFn(maxRetries int) WithRetry {
	return &withRetry{maxRetries: maxRetries}
}

// withRetry is the standard WithRetry. Owned by one goroutine.
type withRetry struct {
	// next is nil before the first attempt and, after IsNextRetry said yes,
	// describes the retry that Before is about to prepare.
	next *RetryAfter

	attempts, maxRetries int

	// outcomes holds what each attempt (or refused Before) ended with, in
	// order; nil for an attempt without error.
	outcomes []error
}

// rememberError records the outcome of an attempt.
func (w *withRetry) rememberError(err error) {
	w.outcomes = append(w.outcomes, err)
}

// earlierError is the latest error recorded before the last outcome, or nil.
func (w *withRetry) earlierError() error {
	for i := len(w.outcomes) - 2; i >= 0; i-- {
		if w.outcomes[i] != nil {
			return w.outcomes[i]
		}
	}
	return nil
}

func (w *withRetry) IsNextRetry(ctx context.Context, restReq *Request, httpReq *http.Request, resp *http.Response, err error, f IsRetryableErrorFunc) bool {
	defer w.rememberError(err)

	// Nothing was sent, or a caller-supplied io.Reader was consumed and
	// cannot be sent again.
	if httpReq == nil || (resp == nil && err == nil) || restReq.body != nil {
		return false
	}
	w.attempts++
	w.next = &RetryAfter{Attempt: w.attempts}
	if w.attempts > w.maxRetries {
		return false
	}
	asked, seconds, ok := retryAsked(httpReq, resp, err, f)
	if ok {
		w.next.Wait = time.Duration(seconds) * time.Second
		w.next.Reason = retryReason(w.attempts, seconds, asked, err)
	}
	return ok
}

// retryAsked reports whether the outcome of an attempt asks for a retry,
// and after how many seconds: a 429 or 5xx response with a Retry-After
// header, or a transport error f accepts, which counts as a 500 asking for
// one second. asked is the response that asks.
func retryAsked(httpReq *http.Request, resp *http.Response, err error, f IsRetryableErrorFunc) (asked *http.Response, seconds int, ok bool) {
	if err != nil {
		if f == nil || !f.IsErrorRetryable(httpReq, err) {
			return nil, 0, false
		}
		return &http.Response{StatusCode: http.StatusInternalServerError, Header: http.Header{"Retry-After": []string{"1"}}}, 1, true
	}
	if resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests {
		return nil, 0, false
	}
	seconds, ok = retryAfterSeconds(resp)
	return resp, seconds, ok
}

// retryReason explains a retry for the throttling log.
func retryReason(attempt, seconds int, resp *http.Response, err error) string {
	prefix := fmt.Sprintf("retries: %d, retry-after: %ds", attempt, seconds)
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		return fmt.Sprintf("%s - retry-reason: due to server-side throttling, FlowSchema UID: %q",
			prefix, resp.Header.Get("X-Kubernetes-PF-FlowSchema-UID"))
	case err != nil:
		return fmt.Sprintf("%s - retry-reason: due to retryable error, error: %v", prefix, err)
	default:
		return fmt.Sprintf("%s - retry-reason: %d", prefix, resp.StatusCode)
	}
}

// backsOff reports whether r's backoff manager may delay a request or
// learn from one: NoBackoff, every request's default, does neither, so
// its calls, and the URL they take, are skipped.
func (r *Request) backsOff() bool {
	_, none := r.backoff.(*NoBackoff)
	return r.backoff != nil && !none
}

func (w *withRetry) Before(ctx context.Context, r *Request) error {
	if err := ctx.Err(); err != nil {
		w.rememberError(err)
		return err
	}

	if w.next == nil {
		// First attempt: only the backoff manager may delay it.
		if r.backsOff() {
			r.backoff.SleepWithContext(ctx, r.backoff.CalculateBackoffWithContext(ctx, r.URL()))
		}
		return nil
	}

	u := r.URL()
	if r.backoff != nil {
		delay := max(r.backoff.CalculateBackoffWithContext(ctx, u), w.next.Wait)
		r.backoff.SleepWithContext(ctx, delay)
	}

	// Every retry is a new request as far as client-side throttling goes.
	if err := r.tryThrottleWithInfo(ctx, w.next.Reason); err != nil {
		w.rememberError(ctx.Err())
		return err
	}
	klog.FromContext(ctx).V(4).Info("Got a Retry-After response", "delay", w.next.Wait, "attempt", w.next.Attempt, "url", u)
	return nil
}

func (w *withRetry) After(ctx context.Context, r *Request, resp *http.Response, err error) {
	wasRetry := w.next != nil
	w.next = nil

	code, host := metricLabels(r, resp)
	observeRequestResult(ctx, code, r.verb, host)
	if wasRetry {
		observeRequestRetry(ctx, code, r.verb, host)
	}

	if r.c.base == nil || !r.backsOff() {
		return
	}
	status := 0
	if err == nil && resp != nil {
		status = resp.StatusCode
	}
	r.backoff.UpdateBackoffWithContext(ctx, r.URL(), err, status)
}

func (w *withRetry) WrapPreviousError(finalErr error) error {
	prior := w.earlierError()
	if finalErr == nil || prior == nil || finalErr.Error() == prior.Error() {
		return finalErr
	}
	if ue, ok := prior.(*url.Error); ok && ue.Unwrap() != nil {
		prior = ue.Unwrap()
	}
	return &withPreviousAttemptError{err: finalErr, previous: prior}
}

// withPreviousAttemptError is the final error of a retried request, annotated
// with the error of the attempt before.
type withPreviousAttemptError struct {
	err, previous error
}

func (e *withPreviousAttemptError) Unwrap() error { return e.err }

func (e *withPreviousAttemptError) Error() string {
	return e.err.Error() + " - error from a previous attempt: " + e.previous.Error()
}

// drainAndClose reads a little of an unused response body so the connection
// can be reused, then closes it.
func drainAndClose(resp *http.Response) {
	if resp == nil || resp.Body == nil {
		return
	}
	const maxDrain = 2 << 10
	defer resp.Body.Close()
	if resp.ContentLength <= maxDrain {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDrain))
	}
}
