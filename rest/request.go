package rest

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/util/flowcontrol"
)

// RequestConstructionError is returned when a request cannot be assembled.
type RequestConstructionError struct {
	Err error
}

// Error describes the construction failure.
func (r *RequestConstructionError) Error() string {
	return fmt.Sprintf("request construction error: '%v'", r.Err)
}

// defaultMaxRetries is how often a request follows Retry-After responses
// unless MaxRetries says otherwise.
const defaultMaxRetries = 10

// Request builds one API call step by step. The first builder error is kept
// and every later builder call is ignored; the error is returned when the
// request runs (or by Error).
type Request struct {
	c *RESTClient

	// Where the request goes: the method, then the URL as pathPrefix,
	// the Kubernetes path parts ([namespaces/<namespace>/]<resource>
	// [/<name>[/<subresource>]]), subpath and params.
	verb         string
	pathPrefix   string
	namespace    string
	namespaceSet bool
	resource     string
	resourceName string
	subresource  string
	subpath      string
	params       url.Values

	// What it sends: headers and a body. body is a caller-supplied stream,
	// sent once and never retried; bodyBytes is a body that can be sent
	// again on every attempt. At most one of them is set.
	headers   http.Header
	body      io.Reader
	bodyBytes []byte

	// How the body and the response are encoded. contentTypeDefaulted
	// tells whether the client configured no content type, which lets
	// UseProtobufAsDefault switch to protobuf.
	contentConfig        ClientContentConfig
	contentTypeDefaulted bool

	// How it is run: pacing, time limit, retries and warnings.
	rateLimiter    flowcontrol.RateLimiter
	backoff        BackoffManagerWithContext
	timeout        time.Duration
	maxRetries     int
	retryFn        requestRetryFunc
	warningHandler WarningHandlerWithContext

	// err is the first builder error.
	err error
}

// NewRequest starts a request on c.
func NewRequest(c *RESTClient) *Request {
	content, defaulted := c.content.forNewRequest()
	r := &Request{
		c:                    c,
		contentConfig:        content,
		contentTypeDefaulted: defaulted,
		warningHandler:       c.warningHandler,
		rateLimiter:          c.rateLimiter,
		retryFn:              defaultRequestRetryFn,
		maxRetries:           defaultMaxRetries,
		backoff:              &NoBackoff{},
		pathPrefix:           path.Join("/", c.versionedAPIPath),
	}
	if c.base != nil {
		r.pathPrefix = path.Join("/", c.base.Path, c.versionedAPIPath)
	}
	if c.Client != nil {
		// The client's timeout also bounds the request's retries.
		r.timeout = c.Client.Timeout
	}
	if c.newBackoff != nil {
		if manager := c.newBackoff(); manager != nil {
			r.backoff = manager
		}
	}
	r.setAcceptHeader()
	return r
}

// NewRequestWithClient returns a request on a RESTClient made just for it,
// for tests.
func NewRequestWithClient(base *url.URL, versionedAPIPath string, content ClientContentConfig, client *http.Client) *Request {
	return NewRequest(&RESTClient{
		base:             base,
		versionedAPIPath: versionedAPIPath,
		content:          &contentConfigProvider{base: content},
		Client:           client,
	})
}

// UseProtobufAsDefaultIfPreferred calls UseProtobufAsDefault when
// prefersProtobuf is set.
func (r *Request) UseProtobufAsDefaultIfPreferred(prefersProtobuf bool) *Request {
	if prefersProtobuf {
		return r.UseProtobufAsDefault()
	}
	return r
}

// UseProtobufAsDefault switches the request to protobuf, accepting JSON as a
// fallback, unless the client configured a content type or Accept header.
func (r *Request) UseProtobufAsDefault() *Request {
	if r.contentTypeDefaulted && r.contentConfig.AcceptContentTypes == "" {
		r.contentConfig.AcceptContentTypes = runtime.ContentTypeProtobuf + "," + runtime.ContentTypeJSON
		r.contentConfig.ContentType = runtime.ContentTypeProtobuf
		r.setAcceptHeader()
	}
	return r
}

func (r *Request) setAcceptHeader() {
	switch {
	case r.contentConfig.AcceptContentTypes != "":
		r.SetHeader("Accept", r.contentConfig.AcceptContentTypes)
	case r.contentConfig.ContentType != "":
		r.SetHeader("Accept", r.contentConfig.ContentType+", */*")
	}
}

// Verb sets the HTTP method.
func (r *Request) Verb(verb string) *Request {
	r.verb = verb
	return r
}

// Prefix appends segments to the path that comes before the namespace,
// resource and name. AbsPath discards earlier prefixes.
func (r *Request) Prefix(segments ...string) *Request {
	return r.step(func() error {
		r.pathPrefix = path.Join(r.pathPrefix, path.Join(segments...))
		return nil
	})
}

// Suffix appends segments to the path after the namespace, resource, name
// and subresource.
func (r *Request) Suffix(segments ...string) *Request {
	return r.step(func() error {
		r.subpath = path.Join(r.subpath, path.Join(segments...))
		return nil
	})
}

// fail records the first builder error.
func (r *Request) fail(format string, args ...any) *Request {
	return r.step(func() error { return fmt.Errorf(format, args...) })
}

// Resource sets the resource (such as "pods"); it may be set once.
func (r *Request) Resource(resource string) *Request {
	return r.setPathPart("resource", &r.resource, r.resource != "", resource)
}

// setPathPart sets one part of the Kubernetes path to its segments,
// joined, unless the part was set already (isSet) or a segment is not a
// valid path segment. label names the part in errors.
func (r *Request) setPathPart(label string, part *string, isSet bool, segments ...string) *Request {
	return r.step(func() error {
		value := path.Join(segments...)
		if isSet {
			return fmt.Errorf("%s already set to %q, cannot change to %q", label, *part, value)
		}
		for _, segment := range segments {
			if problems := IsValidPathSegmentName(segment); len(problems) != 0 {
				return fmt.Errorf("invalid %s %q: %v", label, segment, problems)
			}
		}
		*part = value
		return nil
	})
}

// BackOff sets the backoff manager; nil means no backoff.
//
// Deprecated: BackoffManager.Sleep ignores the caller's context. Use
// BackOffWithContext instead.
func (r *Request) BackOff(manager BackoffManager) *Request {
	var withContext BackoffManagerWithContext
	if manager != nil {
		withContext = contextFreeBackoff{manager}
	}
	return r.BackOffWithContext(withContext)
}

// BackOffWithContext sets the backoff manager; nil means no backoff.
func (r *Request) BackOffWithContext(manager BackoffManagerWithContext) *Request {
	r.backoff = manager
	if manager == nil {
		r.backoff = &NoBackoff{}
	}
	return r
}

// WarningHandler sets the handler for this request's warnings; nil means the
// process default (see SetDefaultWarningHandler).
func (r *Request) WarningHandler(handler WarningHandler) *Request {
	var withContext WarningHandlerWithContext
	if handler != nil {
		withContext = warningHandlerIgnoringContext{handler}
	}
	return r.WarningHandlerWithContext(withContext)
}

// WarningHandlerWithContext sets the handler for this request's warnings;
// nil means the process default (see SetDefaultWarningHandlerWithContext).
func (r *Request) WarningHandlerWithContext(handler WarningHandlerWithContext) *Request {
	r.warningHandler = handler
	return r
}

// Throttle replaces the rate limiter of this request.
func (r *Request) Throttle(limiter flowcontrol.RateLimiter) *Request {
	r.rateLimiter = limiter
	return r
}

// SubResource sets the subresource path (such as "status" or "scale"),
// which follows the name; it may be set once.
func (r *Request) SubResource(subresources ...string) *Request {
	return r.setPathPart("subresource", &r.subresource, r.subresource != "", subresources...)
}

// Name sets the name of the object; it must be non-empty and may be set
// once.
func (r *Request) Name(resourceName string) *Request {
	if resourceName == "" {
		return r.fail("resource name may not be empty")
	}
	return r.setPathPart("resource name", &r.resourceName, r.resourceName != "", resourceName)
}

// Namespace scopes the request to a namespace; it may be set once. An empty
// namespace means all namespaces.
func (r *Request) Namespace(namespace string) *Request {
	r.setPathPart("namespace", &r.namespace, r.namespaceSet, namespace)
	if r.err == nil {
		r.namespaceSet = true
	}
	return r
}

// NamespaceIfScoped calls Namespace when scoped is set.
func (r *Request) NamespaceIfScoped(namespace string, scoped bool) *Request {
	if scoped {
		return r.Namespace(namespace)
	}
	return r
}

// AbsPath replaces the path with segments below the path of the client's
// base URL. A trailing slash survives when a single segment is given.
func (r *Request) AbsPath(segments ...string) *Request {
	return r.step(func() error {
		var base string
		if r.c.base != nil {
			base = r.c.base.Path
		}
		r.pathPrefix = path.Join(base, path.Join(segments...))
		// path.Join drops a trailing slash; a single segment keeps its own,
		// unless that and the base path are no more than "/".
		if len(segments) == 1 {
			only := segments[0]
			if strings.HasSuffix(only, "/") && max(len(base), len(only)) > 1 {
				r.pathPrefix += "/"
			}
		}
		return nil
	})
}

// RequestURI replaces the path and query parameters with those of uri, a
// server-relative URI.
func (r *Request) RequestURI(uri string) *Request {
	return r.step(func() error {
		u, err := url.Parse(uri)
		if err != nil {
			return err
		}
		r.AbsPath(u.Path)
		// The query replaces all parameters; no query leaves none (nil).
		r.params = nil
		if query := u.Query(); len(query) > 0 {
			r.params = maps.Clone(query)
		}
		return nil
	})
}

// step runs one builder step unless an earlier one failed; an error it
// returns becomes the request's error.
func (r *Request) step(apply func() error) *Request {
	if r.err == nil {
		if err := apply(); err != nil && r.err == nil {
			r.err = err
		}
	}
	return r
}

// Param adds a query parameter value.
func (r *Request) Param(paramName, s string) *Request {
	if r.err != nil {
		return r
	}
	r.addParam(paramName, s)
	return r
}

func (r *Request) addParam(name, value string) {
	if r.params == nil {
		r.params = url.Values{}
	}
	r.params[name] = append(r.params[name], value)
}

// VersionedParams adds the fields of obj (such as metav1.ListOptions) as
// query parameters, converted with codec to the client's group version.
// Empty omitempty fields are left out; values add to those already set.
func (r *Request) VersionedParams(obj runtime.Object, codec runtime.ParameterCodec) *Request {
	return r.SpecificallyVersionedParams(obj, codec, r.contentConfig.GroupVersion)
}

// SpecificallyVersionedParams is VersionedParams converting to version.
func (r *Request) SpecificallyVersionedParams(obj runtime.Object, codec runtime.ParameterCodec, version schema.GroupVersion) *Request {
	return r.step(func() error {
		params, err := codec.EncodeParameters(obj, version)
		if err != nil {
			return err
		}
		for name, values := range params {
			for _, v := range values {
				r.addParam(name, v)
			}
		}
		return nil
	})
}

// SetHeader sets a header to values, replacing earlier values.
func (r *Request) SetHeader(key string, values ...string) *Request {
	if r.headers == nil {
		r.headers = make(http.Header, 1)
	}
	key = http.CanonicalHeaderKey(key)
	if len(values) == 0 {
		delete(r.headers, key)
		return r
	}
	r.headers[key] = slices.Clone(values)
	return r
}

// Timeout bounds the whole request, retries included, and asks the server
// for the same limit through the "timeout" query parameter.
func (r *Request) Timeout(d time.Duration) *Request {
	return r.step(func() error {
		r.timeout = d
		return nil
	})
}

// MaxRetries sets how many times the request follows Retry-After responses
// (429 and 5xx) or retryable connection errors; the default is 10 and zero
// or less disables retries. Negative values count as zero.
func (r *Request) MaxRetries(maxRetries int) *Request {
	r.maxRetries = max(maxRetries, 0)
	return r
}

// Error returns the first error met while building the request.
func (r *Request) Error() error {
	return r.err
}

// ResponseWrapper gives access to a response either whole (DoRaw) or as a
// stream (Stream). *Request implements it.
type ResponseWrapper interface {
	DoRaw(context.Context) ([]byte, error)
	Stream(context.Context) (io.ReadCloser, error)
}

var _ ResponseWrapper = &Request{}
