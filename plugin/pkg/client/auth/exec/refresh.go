package exec

import (
	"context"
	"crypto/tls"
	"time"
)

// How a plugin run is shared and bounded
//
// At most one plugin process runs per Authenticator. The first caller that
// finds no valid credentials starts a refresh: a goroutine, owned by the
// refresh, that runs the plugin and stores its answer. Callers that arrive
// while it runs join it instead of starting their own.
//
// Every caller waits with its own context: when that context ends the
// caller returns the context's error at once. The refresh does not depend
// on who waits for it: it runs to its end, and its answer is cached as
// client-go caches it, so that the next request finds it. A retry loop
// with short timeouts therefore makes progress with a slow plugin (a cloud
// provider's token command on a cold start): the first try gives up, the
// plugin finishes, the next try is authorized, and the plugin ran once.
//
// A refresh is bounded by a limit of its own instead: a plugin that does
// not read standard input is killed after pluginRunLimit, far longer than
// any token command takes; an interactive plugin (one given standard
// input: a device-code or browser login, an MFA prompt) waits on a person
// and, as in client-go, runs until it exits.
//
// The TLS client-certificate callback has no context; like client-go's it
// waits for the refresh to end.

// pluginRunLimit bounds one run of a plugin that is not interactive.
const pluginRunLimit = 10 * time.Minute

// killedPluginWaitDelay bounds how long Wait waits for the output pipes of a
// killed plugin to close (a child of the plugin may hold them open).
const killedPluginWaitDelay = time.Second

// refresh is one run of the plugin shared by the callers waiting for it.
// creds and err are written by the refresh goroutine before done is closed
// and read only after.
type refresh struct {
	done chan struct{}
	// cancel ends the run's context, killing the plugin; the refresh
	// goroutine calls it when the run is over.
	cancel context.CancelFunc

	creds *credentials
	err   error
}

// cert returns the cached client certificate, running the plugin when there
// is none; it is the transport's TLS client-certificate callback. A nil
// certificate means the plugin returned a token only.
func (a *Authenticator) cert() (*tls.Certificate, error) {
	creds, err := a.getCreds(context.Background())
	if err != nil {
		return nil, err
	}
	return creds.cert, nil
}

// getCreds returns the cached credentials while they are valid, and
// otherwise the answer of a plugin run, started or joined. It returns
// ctx's error as soon as ctx ends; the run goes on.
func (a *Authenticator) getCreds(ctx context.Context) (*credentials, error) {
	a.mu.Lock()
	if a.cachedCreds != nil && !a.expiredLocked() {
		creds := a.cachedCreds
		a.mu.Unlock()
		return creds, nil
	}
	r := a.joinRefreshLocked()
	a.mu.Unlock()
	return await(ctx, r)
}

func (a *Authenticator) expiredLocked() bool {
	return !a.exp.IsZero() && a.clock.Now().After(a.exp)
}

// refreshAfterRejection runs the plugin again after the server rejected
// used, unless another request already replaced those credentials.
func (a *Authenticator) refreshAfterRejection(ctx context.Context, used *credentials) error {
	a.mu.Lock()
	if used != a.cachedCreds {
		a.mu.Unlock()
		return nil
	}
	r := a.joinRefreshLocked()
	a.mu.Unlock()
	_, err := await(ctx, r)
	return err
}

// joinRefreshLocked returns the refresh in flight, starting one when there
// is none. a.mu must be held.
func (a *Authenticator) joinRefreshLocked() *refresh {
	if a.inflight == nil {
		ctx, cancel := context.WithCancel(context.Background())
		r := &refresh{done: make(chan struct{}), cancel: cancel}
		a.inflight = r
		a.refreshes.Add(1)
		go a.runRefresh(ctx, r)
	}
	return a.inflight
}

// runRefresh is the refresh goroutine: it runs the plugin, caches a
// successful answer and releases the waiters. A failed run caches
// nothing; the next caller starts a new one.
func (a *Authenticator) runRefresh(ctx context.Context, r *refresh) {
	defer a.refreshes.Done()
	creds, exp, err := a.runPlugin(ctx, a.runLimit)

	a.mu.Lock()
	if err == nil {
		a.storeLocked(creds, exp)
	}
	a.inflight = nil
	a.mu.Unlock()

	r.creds, r.err = creds, err
	r.cancel()
	close(r.done)
}

// await waits for r on behalf of one caller, or until ctx ends.
func await(ctx context.Context, r *refresh) (*credentials, error) {
	select {
	case <-r.done:
		return r.creds, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
