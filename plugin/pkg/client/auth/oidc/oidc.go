package oidc

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"sync"
	"time"

	"golang.org/x/oauth2"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/internal/redirect"
	restclient "github.com/kubeclient/client-go/rest"
)

// Keys of the auth-provider config map.
const (
	cfgIssuerURL                = "idp-issuer-url"
	cfgClientID                 = "client-id"
	cfgClientSecret             = "client-secret"
	cfgCertificateAuthority     = "idp-certificate-authority"
	cfgCertificateAuthorityData = "idp-certificate-authority-data"
	cfgIDToken                  = "id-token"
	cfgRefreshToken             = "refresh-token"

	// cfgExtraScopes is still accepted but no longer used: refresh
	// requests carry no scopes.
	cfgExtraScopes = "extra-scopes"
)

// expiryDelta treats a token as expired slightly early, so that it does not
// expire between being checked and reaching the server.
const expiryDelta = 10 * time.Second

func init() {
	if err := restclient.RegisterAuthProviderPlugin("oidc", newOIDCAuthProvider); err != nil {
		klog.Fatalf("Failed to register oidc auth plugin: %v", err)
	}
}

// providers shares one provider per (cluster, issuer, client ID), so that
// every client built from the same kubeconfig user sees the same refreshed
// tokens and refreshes only once.
var providers = &providerCache{byKey: map[providerKey]*oidcAuthProvider{}}

type providerKey struct {
	clusterAddress, issuerURL, clientID string
}

type providerCache struct {
	mu    sync.Mutex // guards byKey
	byKey map[providerKey]*oidcAuthProvider
}

func (c *providerCache) get(k providerKey) (*oidcAuthProvider, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.byKey[k]
	return p, ok
}

// putIfAbsent stores p unless a provider is already cached under k, and
// returns the cached one.
func (c *providerCache) putIfAbsent(k providerKey, p *oidcAuthProvider) *oidcAuthProvider {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, taken := c.byKey[k]; !taken {
		c.byKey[k] = p
	}
	return c.byKey[k]
}

func newOIDCAuthProvider(clusterAddress string, cfg map[string]string, persister restclient.AuthProviderConfigPersister) (restclient.AuthProvider, error) {
	for _, required := range []string{cfgIssuerURL, cfgClientID} {
		if cfg[required] == "" {
			return nil, fmt.Errorf("Must provide %s", required)
		}
	}
	issuer, clientID := cfg[cfgIssuerURL], cfg[cfgClientID]

	key := providerKey{clusterAddress: clusterAddress, issuerURL: issuer, clientID: clientID}
	if p, ok := providers.get(key); ok {
		return p, nil
	}

	if cfg[cfgExtraScopes] != "" {
		klog.V(2).Infof("%s auth provider field is deprecated: refresh requests do not send scopes", cfgExtraScopes)
	}

	var caData []byte
	if encoded := cfg[cfgCertificateAuthorityData]; encoded != "" {
		var err error
		if caData, err = base64.StdEncoding.DecodeString(encoded); err != nil {
			return nil, fmt.Errorf("oidc: %s is not valid base64: %v", cfgCertificateAuthorityData, err)
		}
	}
	rt, err := restclient.TransportFor(&restclient.Config{
		TLSClientConfig: restclient.TLSClientConfig{
			CAFile: cfg[cfgCertificateAuthority],
			CAData: caData,
		},
	})
	if err != nil {
		return nil, err
	}

	p := &oidcAuthProvider{
		client:    &http.Client{Transport: rt},
		now:       time.Now,
		clientID:  clientID,
		cfg:       cfg,
		persister: persister,
	}
	return providers.putIfAbsent(key, p), nil
}

// oidcAuthProvider holds one kubeconfig user's OIDC settings and tokens.
type oidcAuthProvider struct {
	client   *http.Client // talks to the identity provider
	now      func() time.Time
	clientID string

	// mu serializes refreshes and guards cfg, which is replaced (never
	// modified in place) after a successful refresh.
	mu        sync.Mutex
	cfg       map[string]string
	persister restclient.AuthProviderConfigPersister
}

// WrapTransport returns rt wrapped so that requests carry the ID token.
func (p *oidcAuthProvider) WrapTransport(rt http.RoundTripper) http.RoundTripper {
	return &roundTripper{wrapped: rt, provider: p}
}

// Login is not supported: obtaining the first tokens is left to tools such
// as kubelogin.
func (p *oidcAuthProvider) Login() error {
	return errors.New("not yet implemented")
}

// roundTripper adds "Authorization: Bearer <id-token>" to requests that do
// not already carry an Authorization header.
type roundTripper struct {
	provider *oidcAuthProvider
	wrapped  http.RoundTripper
}

var _ utilnet.RoundTripperWrapper = &roundTripper{}

func (r *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	// A redirect hop to another server gets no token.
	if req.Header.Get("Authorization") != "" || redirect.LeftOrigin(req) {
		return r.wrapped.RoundTrip(req)
	}
	token, err := r.provider.idToken()
	if err != nil {
		return nil, err
	}
	req = utilnet.CloneRequest(req)
	req.Header.Set("Authorization", "Bearer "+token)
	return r.wrapped.RoundTrip(req)
}

func (r *roundTripper) WrappedRoundTripper() http.RoundTripper { return r.wrapped }

// idToken returns the current ID token, refreshing it first when it has
// expired (or is about to).
func (p *oidcAuthProvider) idToken() (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()

	if token := p.cfg[cfgIDToken]; token != "" {
		valid, err := idTokenValid(p.now, token)
		if err != nil {
			return "", err
		}
		if valid {
			return token, nil
		}
	}

	refreshToken := p.cfg[cfgRefreshToken]
	if refreshToken == "" {
		return "", errors.New("No valid id-token, and cannot refresh without refresh-token")
	}

	tokenURL, err := discoverTokenEndpoint(p.client, p.cfg[cfgIssuerURL])
	if err != nil {
		return "", err
	}
	oauthConfig := oauth2.Config{
		ClientID:     p.clientID,
		ClientSecret: p.cfg[cfgClientSecret],
		Endpoint:     oauth2.Endpoint{TokenURL: tokenURL},
	}
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, p.client)
	fresh, err := oauthConfig.TokenSource(ctx, &oauth2.Token{RefreshToken: refreshToken}).Token()
	if err != nil {
		return "", fmt.Errorf("failed to refresh token: %v", err)
	}
	newIDToken, ok := fresh.Extra("id_token").(string)
	if !ok {
		// Refresh responses need not include an ID token; some providers
		// only return one when the "openid" scope was granted at login.
		return "", errors.New(`token response did not contain an id_token, either the scope "openid" wasn't requested upon login, or the provider doesn't support id_tokens as part of the refresh response`)
	}

	updated := maps.Clone(p.cfg)
	if updated == nil {
		updated = map[string]string{}
	}
	updated[cfgIDToken] = newIDToken
	if fresh.RefreshToken != "" {
		// Providers that rotate refresh tokens invalidate the old one.
		updated[cfgRefreshToken] = fresh.RefreshToken
	}
	if err := p.persister.Persist(updated); err != nil {
		return "", fmt.Errorf("could not persist new tokens: %v", err)
	}
	p.cfg = updated
	return newIDToken, nil
}
