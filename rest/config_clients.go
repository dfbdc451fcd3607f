package rest

import (
	"errors"
	"net/http"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/internal/wirecodec"
	"github.com/kubeclient/client-go/tools/metrics"
	"github.com/kubeclient/client-go/util/flowcontrol"
)

var (
	errGroupVersionRequired         = errors.New("GroupVersion is required when initializing a RESTClient")
	errNegotiatedSerializerRequired = errors.New("NegotiatedSerializer is required when initializing a RESTClient")
)

// RESTClientFor builds a RESTClient for config, with an HTTP client made by
// HTTPClientFor. config.GroupVersion and config.NegotiatedSerializer must be
// set.
func RESTClientFor(config *Config) (*RESTClient, error) {
	if config.GroupVersion == nil {
		return nil, errGroupVersionRequired
	}
	return newClientFromConfig(config, nil, true)
}

// RESTClientForConfigAndClient is RESTClientFor with a caller-supplied HTTP
// client, which lets many API group clients share one connection pool. The
// HTTP client wins over the transport settings of config; nil means
// http.DefaultClient.
func RESTClientForConfigAndClient(config *Config, httpClient *http.Client) (*RESTClient, error) {
	metrics.EnsureRegistered()
	if config.GroupVersion == nil {
		return nil, errGroupVersionRequired
	}
	return newClientFromConfig(config, httpClient, false)
}

// UnversionedRESTClientFor is RESTClientFor for endpoints outside any API
// group version: config.GroupVersion may be nil.
func UnversionedRESTClientFor(config *Config) (*RESTClient, error) {
	return newClientFromConfig(config, nil, true)
}

// UnversionedRESTClientForConfigAndClient is RESTClientForConfigAndClient
// with config.GroupVersion optional.
func UnversionedRESTClientForConfigAndClient(config *Config, httpClient *http.Client) (*RESTClient, error) {
	return newClientFromConfig(config, httpClient, false)
}

// newClientFromConfig is the common body of the RESTClientFor family. When
// buildHTTPClient is set, the HTTP client is derived from config (after the
// server URL has been validated, so a bad Host is reported first).
func newClientFromConfig(config *Config, httpClient *http.Client, buildHTTPClient bool) (*RESTClient, error) {
	if config.NegotiatedSerializer == nil {
		return nil, errNegotiatedSerializerRequired
	}
	baseURL, versionedAPIPath, err := DefaultServerUrlFor(config)
	if err != nil {
		return nil, err
	}
	if buildHTTPClient {
		if httpClient, err = HTTPClientFor(config); err != nil {
			return nil, err
		}
	}

	// A versioned client with no GroupVersion cannot exist (checked by the
	// callers); an unversioned one defaults its parameter version to meta/v1
	// when the group version is unset, so VersionedParams still works.
	var gv schema.GroupVersion
	switch {
	case config.GroupVersion != nil:
		gv = *config.GroupVersion
	default:
		gv = metav1.SchemeGroupVersion
	}

	// The caller's serializer decodes through the generated decoders where
	// they give exactly its answers (wirecodec.NewNegotiatedSerializer).
	content := ClientContentConfig{
		AcceptContentTypes: config.AcceptContentTypes,
		ContentType:        config.ContentType,
		GroupVersion:       gv,
		Negotiator:         runtime.NewClientNegotiator(wirecodec.NewNegotiatedSerializer(config.NegotiatedSerializer), gv),
	}
	client, err := NewRESTClient(baseURL, versionedAPIPath, content, rateLimiterFor(config), httpClient)
	if client != nil {
		switch {
		case config.WarningHandlerWithContext != nil:
			client.warningHandler = config.WarningHandlerWithContext
		case config.WarningHandler != nil:
			client.warningHandler = warningHandlerIgnoringContext{config.WarningHandler}
		}
	}
	return client, err
}

// rateLimiterFor returns config.RateLimiter, or a token bucket built from
// QPS and Burst (with their defaults for zero), or nil when QPS is negative.
func rateLimiterFor(config *Config) flowcontrol.RateLimiter {
	if config.RateLimiter != nil {
		return config.RateLimiter
	}
	qps, burst := config.QPS, config.Burst
	if qps == 0 {
		qps = DefaultQPS
	}
	if burst == 0 {
		burst = DefaultBurst
	}
	if qps < 0 {
		return nil
	}
	return flowcontrol.NewTokenBucketRateLimiter(qps, burst)
}
