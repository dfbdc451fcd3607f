package exec

import (
	"context"
	"crypto/tls"
	"errors"
	"time"
)

// How a plugin run is shared and bounded
//
// At most one plugin process runs per Authenticator. The first caller that
// finds no valid credentials starts a refresh: a goroutine, owned by the
// refresh, that runs the plugin and stores its answer. Callers that arrive
// while it runs join it instead of starting their own. Every caller waits
// with its own context: when that context ends the caller returns the
// context's error at once and leaves the refresh. When the last waiting
// caller has left, nobody wants the answer any more and the refresh is
// abandoned: its context is cancelled, which kills the plugin process, and
// the next caller starts a fresh run. One caller giving up therefore never
// kills a run that another caller still waits for, and a plugin that never
// exits is killed as soon as no caller waits for it.
//
// The TLS client-certificate callback has no context of its own; it waits at
// most certCallbackWait.

// killedPluginWaitDelay bounds how long Wait waits for the output pipes of a
// killed plugin to close (a child of the plugin may hold them open).
const killedPluginWaitDelay = time.Second

// certCallbackWait bounds how long the TLS client-certificate callback waits
// for a refresh. Requests normally run the plugin before dialing (see
// roundTripper), so the callback finds the certificate cached.
const certCallbackWait = time.Minute

// errRefreshAbandoned is the cause given to an abandoned refresh's context.
var errRefreshAbandoned = errors.New("no caller waits for the credentials any more")

// refresh is one run of the plugin shared by the callers waiting for it.
// waiters and abandoned are guarded by the Authenticator's mu; creds, exp
// and err are written by the refresh goroutine before done is closed and
// read only after.
type refresh struct {
	done   chan struct{}
	cancel context.CancelCauseFunc

	waiters   int
	abandoned bool

	creds *credentials
	err   error
}

// cert returns the cached client certificate, running the plugin when there
// is none; it is the transport's TLS client-certificate callback. A nil
// certificate means the plugin returned a token only.
func (a *Authenticator) cert() (*tls.Certificate, error) {
	ctx, cancel := context.WithTimeout(context.Background(), a.certWait)
	defer cancel()
	creds, err := a.getCreds(ctx)
	if err != nil {
		return nil, err
	}
	return creds.cert, nil
}

// getCreds returns the cached credentials while they are valid, and
// otherwise the answer of a plugin run, started or joined. It returns
// ctx's error as soon as ctx ends.
func (a *Authenticator) getCreds(ctx context.Context) (*credentials, error) {
	a.mu.Lock()
	if a.cachedCreds != nil && !a.expiredLocked() {
		creds := a.cachedCreds
		a.mu.Unlock()
		return creds, nil
	}
	r := a.joinRefreshLocked()
	a.mu.Unlock()
	return a.await(ctx, r)
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
	_, err := a.await(ctx, r)
	return err
}

// joinRefreshLocked registers the caller as a waiter of the refresh in
// flight, starting one when there is none. a.mu must be held.
func (a *Authenticator) joinRefreshLocked() *refresh {
	if a.inflight == nil {
		ctx, cancel := context.WithCancelCause(context.Background())
		r := &refresh{done: make(chan struct{}), cancel: cancel}
		a.inflight = r
		a.refreshes.Add(1)
		go a.runRefresh(ctx, r)
	}
	a.inflight.waiters++
	return a.inflight
}

// runRefresh is the refresh goroutine: it runs the plugin, stores the
// answer unless the refresh was abandoned, and releases the waiters.
func (a *Authenticator) runRefresh(ctx context.Context, r *refresh) {
	defer a.refreshes.Done()
	creds, exp, err := a.runPlugin(ctx)

	a.mu.Lock()
	if !r.abandoned {
		if err == nil {
			a.storeLocked(creds, exp)
		}
		a.inflight = nil
	}
	a.mu.Unlock()

	r.creds, r.err = creds, err
	r.cancel(nil)
	close(r.done)
}

// await waits for r on behalf of one caller, or until ctx ends. The last
// caller to leave an unfinished refresh abandons it.
func (a *Authenticator) await(ctx context.Context, r *refresh) (*credentials, error) {
	select {
	case <-r.done:
		return r.creds, r.err
	case <-ctx.Done():
	}

	a.mu.Lock()
	r.waiters--
	if r.waiters == 0 && !r.abandoned && a.inflight == r {
		r.abandoned = true
		a.inflight = nil
		r.cancel(errRefreshAbandoned)
	}
	a.mu.Unlock()
	return nil, ctx.Err()
}
