package metrics

import "sync"

// RegisterOpts holds the metric implementations to install. Nil fields keep
// the current (no-op) implementation.
type RegisterOpts struct {
	ClientCertExpiry             ExpiryMetric
	ClientCertRotationAge        DurationMetric
	RequestLatency               LatencyMetric
	ResolverLatency              ResolverLatencyMetric
	RequestSize                  SizeMetric
	ResponseSize                 SizeMetric
	RateLimiterLatency           LatencyMetric
	RequestResult                ResultMetric
	ExecPluginCalls              CallsMetric
	ExecPluginPolicyCalls        PolicyCallsMetric
	RequestRetry                 RetryMetric
	TransportCacheEntries        TransportCacheMetric
	TransportCreateCalls         TransportCreateCallsMetric
	TransportCAReloads           TransportCAReloadsMetric
	TransportCertRotationGCCalls TransportCertRotationGCCallsMetric
	TransportCacheGCCalls        TransportCacheGCCallsMetric

	// RegisterFn, when set, is run once by the first EnsureRegistered call.
	// Adapters use it to postpone registration work that depends on state
	// known only at run time, such as feature gates.
	RegisterFn func()
}

var (
	// registerOnce makes only the first Register call take effect.
	registerOnce sync.Once
	// deferredMu guards deferredRegistration.
	deferredMu sync.Mutex
	// deferredRegistration is RegisterOpts.RegisterFn of the first Register
	// call, if any.
	deferredRegistration func()
	// deferredOnce runs deferredRegistration at most once.
	deferredOnce sync.Once
)

// Register installs the non-nil metrics of opts in place of the package
// variables. Only the first call has an effect; later calls are ignored.
// Call it during start-up, before clients are created.
func Register(opts RegisterOpts) {
	registerOnce.Do(func() {
		install(&ClientCertExpiry, opts.ClientCertExpiry)
		install(&ClientCertRotationAge, opts.ClientCertRotationAge)
		install(&RequestLatency, opts.RequestLatency)
		install(&ResolverLatency, opts.ResolverLatency)
		install(&RequestSize, opts.RequestSize)
		install(&ResponseSize, opts.ResponseSize)
		install(&RateLimiterLatency, opts.RateLimiterLatency)
		install(&RequestResult, opts.RequestResult)
		install(&ExecPluginCalls, opts.ExecPluginCalls)
		install(&ExecPluginPolicyCalls, opts.ExecPluginPolicyCalls)
		install(&RequestRetry, opts.RequestRetry)
		install(&TransportCacheEntries, opts.TransportCacheEntries)
		install(&TransportCreateCalls, opts.TransportCreateCalls)
		install(&TransportCAReloads, opts.TransportCAReloads)
		install(&TransportCertRotationGCCalls, opts.TransportCertRotationGCCalls)
		install(&TransportCacheGCCalls, opts.TransportCacheGCCalls)
		if opts.RegisterFn != nil {
			deferredMu.Lock()
			deferredRegistration = opts.RegisterFn
			deferredMu.Unlock()
		}
	})
}

// install stores m in *dst unless m is nil.
func install[M any](dst *M, m M) {
	if any(m) != nil {
		*dst = m
	}
}

// EnsureRegistered runs the RegisterFn given to Register, once. Later calls
// do nothing and are cheap, so constructors of clients, transports and
// credential providers may call it freely to make metric series appear as
// soon as the first client exists. If Register has not been given a
// RegisterFn yet, EnsureRegistered does nothing and a later call may still
// run it.
func EnsureRegistered() {
	deferredMu.Lock()
	fn := deferredRegistration
	deferredMu.Unlock()
	if fn != nil {
		deferredOnce.Do(fn)
	}
}
