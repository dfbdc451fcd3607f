package record

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/utils/clock"

	internalevents "github.com/kubeclient/client-go/tools/internal/events"
	"github.com/kubeclient/client-go/util/flowcontrol"
)

const (
	// maxLruCacheEntries bounds each correlator cache.
	maxLruCacheEntries = 4096

	// Ten events about the same object and reason that differ only in
	// their message within ten minutes are aggregated into one.
	defaultAggregateMaxEvents         = 10
	defaultAggregateIntervalInSeconds = 600

	// A source may burst 25 events about an object, then one more every
	// five minutes.
	defaultSpamBurst = 25
	defaultSpamQPS   = 1. / 300.
)

// joinKey concatenates key parts without a separator, as event keys are.
func joinKey(parts ...string) string { return strings.Join(parts, "") }

// getEventKey identifies an event exactly: source, object, type, reason and
// message.
func getEventKey(event *v1.Event) string {
	return joinKey(
		event.Source.Component,
		event.Source.Host,
		event.InvolvedObject.Kind,
		event.InvolvedObject.Namespace,
		event.InvolvedObject.Name,
		event.InvolvedObject.FieldPath,
		string(event.InvolvedObject.UID),
		event.InvolvedObject.APIVersion,
		event.Type,
		event.Reason,
		event.Message,
	)
}

// getSpamKey identifies the source and object of an event (and its type):
// the unit the spam filter rate-limits.
func getSpamKey(event *v1.Event) string {
	return joinKey(
		event.Source.Component,
		event.Source.Host,
		event.InvolvedObject.Kind,
		event.InvolvedObject.Namespace,
		event.InvolvedObject.Name,
		string(event.InvolvedObject.UID),
		event.InvolvedObject.APIVersion,
		event.Type,
	)
}

// EventSpamKeyFunc returns the key under which an event is rate-limited.
type EventSpamKeyFunc func(event *v1.Event) string

// EventFilterFunc reports whether an event should be dropped.
type EventFilterFunc func(event *v1.Event) bool

// EventSourceObjectSpamFilter rate-limits the events each source may emit
// about each object with a token bucket per spam key.
type EventSourceObjectSpamFilter struct {
	sync.RWMutex

	// cache maps spam keys to their rate limiters; guarded by the mutex.
	cache *lruCache[spamRecord]

	burst       int
	qps         float32
	clock       clock.PassiveClock
	spamKeyFunc EventSpamKeyFunc
}

// spamRecord holds one spam key's token bucket.
type spamRecord struct {
	rateLimiter flowcontrol.PassiveRateLimiter
}

// NewEventSourceObjectSpamFilter returns a filter that lets each spam key
// burst events and refills at qps. A nil spamKeyFunc uses the source and
// object of the event.
func NewEventSourceObjectSpamFilter(lruCacheSize, burst int, qps float32, clock clock.PassiveClock, spamKeyFunc EventSpamKeyFunc) *EventSourceObjectSpamFilter {
	if spamKeyFunc == nil {
		spamKeyFunc = getSpamKey
	}
	return &EventSourceObjectSpamFilter{
		cache:       newLRUCache[spamRecord](lruCacheSize),
		burst:       burst,
		qps:         qps,
		clock:       clock,
		spamKeyFunc: spamKeyFunc,
	}
}

// Filter reports whether event exceeds its source+object budget and should
// be dropped. The event must not be nil.
func (f *EventSourceObjectSpamFilter) Filter(event *v1.Event) bool {
	key := f.spamKeyFunc(event)
	f.Lock()
	defer f.Unlock()
	record, _ := f.cache.Get(key)
	if record.rateLimiter == nil {
		record.rateLimiter = flowcontrol.NewTokenBucketPassiveRateLimiterWithClock(f.qps, f.burst, f.clock)
	}
	drop := !record.rateLimiter.TryAccept()
	f.cache.Add(key, record)
	return drop
}

// EventAggregatorKeyFunc groups events for aggregation: events with the same
// aggregateKey but different localKeys count as distinct similar events.
type EventAggregatorKeyFunc func(event *v1.Event) (aggregateKey string, localKey string)

// EventAggregatorByReasonFunc groups events by source, object, type, reason
// and reporting controller and instance; the message distinguishes them.
// The event must not be nil.
func EventAggregatorByReasonFunc(event *v1.Event) (string, string) {
	return joinKey(
		event.Source.Component,
		event.Source.Host,
		event.InvolvedObject.Kind,
		event.InvolvedObject.Namespace,
		event.InvolvedObject.Name,
		string(event.InvolvedObject.UID),
		event.InvolvedObject.APIVersion,
		event.Type,
		event.Reason,
		event.ReportingController,
		event.ReportingInstance,
	), event.Message
}

// EventAggregatorMessageFunc returns the message of an aggregate event.
type EventAggregatorMessageFunc func(event *v1.Event) string

// EventAggregatorByReasonMessageFunc prefixes the event's message with
// "(combined from similar events): ".
func EventAggregatorByReasonMessageFunc(event *v1.Event) string {
	return "(combined from similar events): " + event.Message
}

// EventAggregator replaces a stream of similar events (same aggregate key,
// different local keys) with a single aggregate event once maxEvents
// distinct ones were seen within maxIntervalInSeconds of each other.
type EventAggregator struct {
	sync.RWMutex

	// cache maps aggregate keys to what was seen; guarded by the mutex.
	cache *lruCache[aggregateRecord]

	keyFunc              EventAggregatorKeyFunc
	messageFunc          EventAggregatorMessageFunc
	maxEvents            uint
	maxIntervalInSeconds uint
	clock                clock.PassiveClock
}

// aggregateRecord is what the aggregator remembers per aggregate key.
type aggregateRecord struct {
	localKeys     sets.Set[string]
	lastTimestamp metav1.Time
}

// NewEventAggregator returns an aggregator with the given settings.
func NewEventAggregator(lruCacheSize int, keyFunc EventAggregatorKeyFunc, messageFunc EventAggregatorMessageFunc,
	maxEvents int, maxIntervalInSeconds int, clock clock.PassiveClock) *EventAggregator {
	return &EventAggregator{
		cache:                newLRUCache[aggregateRecord](lruCacheSize),
		keyFunc:              keyFunc,
		messageFunc:          messageFunc,
		maxEvents:            uint(max(maxEvents, 0)),
		maxIntervalInSeconds: uint(max(maxIntervalInSeconds, 0)),
		clock:                clock,
	}
}

// EventAggregate records newEvent and returns the event to emit and its
// cache key. Below the threshold that is newEvent itself under its exact
// key; at the threshold it is a new aggregate event (message from the
// message func) under the aggregate key, so that later aggregates of the
// group update the same event. newEvent must not be nil.
func (e *EventAggregator) EventAggregate(newEvent *v1.Event) (*v1.Event, string) {
	now := metav1.NewTime(e.clock.Now())
	eventKey := getEventKey(newEvent)
	aggregateKey, localKey := e.keyFunc(newEvent)

	e.Lock()
	defer e.Unlock()
	record, _ := e.cache.Get(aggregateKey)
	maxInterval := time.Duration(e.maxIntervalInSeconds) * time.Second
	if record.localKeys == nil || now.Sub(record.lastTimestamp.Time) > maxInterval {
		record = aggregateRecord{localKeys: sets.New[string]()}
	}
	record.localKeys.Insert(localKey)
	record.lastTimestamp = now
	e.cache.Add(aggregateKey, record)

	if uint(record.localKeys.Len()) < e.maxEvents {
		return newEvent, eventKey
	}
	// Keep the set from growing past the threshold.
	for k := range record.localKeys {
		record.localKeys.Delete(k)
		break
	}
	aggregate := &v1.Event{
		ObjectMeta: metav1.ObjectMeta{
			Name:      fmt.Sprintf("%v.%x", newEvent.InvolvedObject.Name, now.UnixNano()),
			Namespace: newEvent.Namespace,
		},
		Count:          1,
		FirstTimestamp: now,
		InvolvedObject: newEvent.InvolvedObject,
		LastTimestamp:  now,
		Message:        e.messageFunc(newEvent),
		Type:           newEvent.Type,
		Reason:         newEvent.Reason,
		Source:         newEvent.Source,
	}
	return aggregate, aggregateKey
}

// eventLog is what the correlator remembers about an event it emitted: how
// often, since when, and the server's name and version of it.
type eventLog struct {
	count           uint
	firstTimestamp  metav1.Time
	name            string
	resourceVersion string
}

// eventLogger counts identical events and turns repeats into patches of
// the stored event.
type eventLogger struct {
	sync.RWMutex
	cache *lruCache[eventLog] // guarded by the mutex
	clock clock.PassiveClock
}

func newEventLogger(lruCacheEntries int, clock clock.PassiveClock) *eventLogger {
	return &eventLogger{cache: newLRUCache[eventLog](lruCacheEntries), clock: clock}
}

// eventObserve records newEvent under key. For a repeat it returns the
// event renamed to the stored one with its count bumped, and a strategic
// merge patch carrying the new count, message and last timestamp.
func (e *eventLogger) eventObserve(newEvent *v1.Event, key string) (*v1.Event, []byte, error) {
	event := newEvent.DeepCopy()
	var (
		patch []byte
		err   error
	)
	e.Lock()
	defer e.Unlock()
	if last, ok := e.cache.Get(key); ok && last.count > 0 {
		event.Name = last.name
		event.ResourceVersion = last.resourceVersion
		event.FirstTimestamp = last.firstTimestamp
		event.Count = int32(last.count) + 1

		base := event.DeepCopy()
		base.Count = 0
		base.LastTimestamp = metav1.NewTime(time.Unix(0, 0))
		base.Message = ""
		patch, err = twoWayEventPatch(base, event)
	}
	e.cache.Add(key, eventLog{
		count:           uint(event.Count),
		firstTimestamp:  event.FirstTimestamp,
		name:            event.Name,
		resourceVersion: event.ResourceVersion,
	})
	return event, patch, err
}

func twoWayEventPatch(from, to *v1.Event) ([]byte, error) {
	oldData, err := json.Marshal(from)
	if err != nil {
		return nil, err
	}
	newData, err := json.Marshal(to)
	if err != nil {
		return nil, err
	}
	return internalevents.CreateTwoWayMergePatch(oldData, newData)
}

// updateState stores the server's view of event.
func (e *eventLogger) updateState(event *v1.Event) {
	key := getEventKey(event)
	e.Lock()
	defer e.Unlock()
	e.cache.Add(key, eventLog{
		count:           uint(event.Count),
		firstTimestamp:  event.FirstTimestamp,
		name:            event.Name,
		resourceVersion: event.ResourceVersion,
	})
}

// EventCorrelator sits between recorders and a sink: it drops events past
// the spam budget, aggregates similar events and turns exact repeats into
// count updates of one stored event.
type EventCorrelator struct {
	filterFunc EventFilterFunc
	aggregator *EventAggregator
	logger     *eventLogger
}

// EventCorrelateResult is the outcome of EventCorrelate.
type EventCorrelateResult struct {
	// Event is the event to send.
	Event *v1.Event
	// Patch, when set, is the strategic merge patch that updates the stored
	// event instead of creating a new one.
	Patch []byte
	// Skip means the event was filtered and must not be sent.
	Skip bool
}

// NewEventCorrelator returns a correlator with the default settings:
// aggregation after 10 similar events within 10 minutes, counting of exact
// repeats, and a spam budget of a burst of 25 events per source and object
// refilled at one event every 5 minutes.
func NewEventCorrelator(clock clock.PassiveClock) *EventCorrelator {
	return NewEventCorrelatorWithOptions(CorrelatorOptions{Clock: clock})
}

// NewEventCorrelatorWithOptions returns a correlator configured by options;
// zero fields take the defaults.
func NewEventCorrelatorWithOptions(options CorrelatorOptions) *EventCorrelator {
	o := populateDefaults(options)
	spamFilter := NewEventSourceObjectSpamFilter(o.LRUCacheSize, o.BurstSize, o.QPS, o.Clock, o.SpamKeyFunc)
	return &EventCorrelator{
		filterFunc: spamFilter.Filter,
		aggregator: NewEventAggregator(o.LRUCacheSize, o.KeyFunc, o.MessageFunc, o.MaxEvents, o.MaxIntervalInSeconds, o.Clock),
		logger:     newEventLogger(o.LRUCacheSize, o.Clock),
	}
}

// populateDefaults fills zero fields of options with the defaults.
func populateDefaults(options CorrelatorOptions) CorrelatorOptions {
	if options.LRUCacheSize == 0 {
		options.LRUCacheSize = maxLruCacheEntries
	}
	if options.BurstSize == 0 {
		options.BurstSize = defaultSpamBurst
	}
	if options.QPS == 0 {
		options.QPS = defaultSpamQPS
	}
	if options.KeyFunc == nil {
		options.KeyFunc = EventAggregatorByReasonFunc
	}
	if options.MessageFunc == nil {
		options.MessageFunc = EventAggregatorByReasonMessageFunc
	}
	if options.MaxEvents == 0 {
		options.MaxEvents = defaultAggregateMaxEvents
	}
	if options.MaxIntervalInSeconds == 0 {
		options.MaxIntervalInSeconds = defaultAggregateIntervalInSeconds
	}
	if options.Clock == nil {
		options.Clock = clock.RealClock{}
	}
	if options.SpamKeyFunc == nil {
		options.SpamKeyFunc = getSpamKey
	}
	return options
}

// EventCorrelate aggregates and counts newEvent, then applies the spam
// filter.
func (c *EventCorrelator) EventCorrelate(newEvent *v1.Event) (*EventCorrelateResult, error) {
	if newEvent == nil {
		return nil, fmt.Errorf("event is nil")
	}
	aggregate, key := c.aggregator.EventAggregate(newEvent)
	observed, patch, err := c.logger.eventObserve(aggregate, key)
	if c.filterFunc(observed) {
		return &EventCorrelateResult{Skip: true}, nil
	}
	return &EventCorrelateResult{Event: observed, Patch: patch}, err
}

// UpdateState records the server's copy of event (its name, version and
// count) so that later repeats patch it. event must not be nil.
func (c *EventCorrelator) UpdateState(event *v1.Event) {
	c.logger.updateState(event)
}

// CorrelatorOptions configures an EventCorrelator; zero fields take the
// defaults.
type CorrelatorOptions struct {
	// LRUCacheSize bounds the spam filter's and the aggregator's caches
	// (default 4096).
	LRUCacheSize int
	// BurstSize is the token bucket burst of the spam filter (default 25).
	BurstSize int
	// QPS is the token bucket refill rate of the spam filter (default one
	// every 300 seconds).
	QPS float32
	// KeyFunc groups events for aggregation (default
	// EventAggregatorByReasonFunc).
	KeyFunc EventAggregatorKeyFunc
	// MessageFunc builds aggregate messages (default
	// EventAggregatorByReasonMessageFunc).
	MessageFunc EventAggregatorMessageFunc
	// MaxEvents is how many similar events trigger aggregation (default 10).
	MaxEvents int
	// MaxIntervalInSeconds is how long after the last similar event a new
	// one starts a fresh group (default 600).
	MaxIntervalInSeconds int
	// Clock drives the aggregator and spam filter (default the real clock).
	Clock clock.PassiveClock
	// SpamKeyFunc keys the spam filter (default: source, object and type).
	SpamKeyFunc EventSpamKeyFunc
}
