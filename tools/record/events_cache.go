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

// Defaults of CorrelatorOptions.
const (
	// A source may burst 25 events about an object, then one more every
	// five minutes.
	defaultSpamQPS   = 1. / 300.
	defaultSpamBurst = 25

	// Ten events about the same object and reason that differ only in
	// their message within ten minutes are aggregated into one.
	defaultAggregateIntervalInSeconds = 600
	defaultAggregateMaxEvents         = 10

	// maxLruCacheEntries bounds each correlator cache.
	maxLruCacheEntries = 4096
)

// Event keys concatenate event fields without separators. They are built
// from the parts below, always in this order: source, involved object,
// type, then whatever else distinguishes the key.

// sourceKey is the part of a key that names the event's source.
func sourceKey(event *v1.Event) string {
	return event.Source.Component + event.Source.Host
}

// objectKey is the part of a key that names the involved object;
// withFieldPath adds the field path after the name.
func objectKey(ref *v1.ObjectReference, withFieldPath bool) string {
	var b strings.Builder
	b.WriteString(ref.Kind)
	b.WriteString(ref.Namespace)
	b.WriteString(ref.Name)
	if withFieldPath {
		b.WriteString(ref.FieldPath)
	}
	b.WriteString(string(ref.UID))
	b.WriteString(ref.APIVersion)
	return b.String()
}

// getEventKey identifies an event exactly: source, object with field path,
// type, reason and message.
func getEventKey(event *v1.Event) string {
	return sourceKey(event) + objectKey(&event.InvolvedObject, true) + event.Type + event.Reason + event.Message
}

// getSpamKey identifies the source and object of an event (and its type):
// the unit the spam filter rate-limits.
func getSpamKey(event *v1.Event) string {
	return sourceKey(event) + objectKey(&event.InvolvedObject, false) + event.Type
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
	group := sourceKey(event) + objectKey(&event.InvolvedObject, false) + event.Type + event.Reason +
		event.ReportingController + event.ReportingInstance
	return group, event.Message
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
	aggregateKey, localKey := e.keyFunc(newEvent)
	if !e.reachedThreshold(aggregateKey, localKey, now) {
		return newEvent, getEventKey(newEvent)
	}
	aggregate := &v1.Event{
		InvolvedObject: newEvent.InvolvedObject,
		Source:         newEvent.Source,
		Type:           newEvent.Type,
		Reason:         newEvent.Reason,
		Message:        e.messageFunc(newEvent),
		Count:          1,
		FirstTimestamp: now,
		LastTimestamp:  now,
	}
	aggregate.Namespace = newEvent.Namespace
	aggregate.Name = fmt.Sprintf("%v.%x", newEvent.InvolvedObject.Name, now.UnixNano())
	return aggregate, aggregateKey
}

// reachedThreshold records localKey among the similar events of
// aggregateKey, starting a new group when the last one was seen more than
// the interval ago, and reports whether the group has maxEvents distinct
// local keys. At the threshold it forgets one of them, so that the group
// stays there and every further similar event updates the aggregate.
func (e *EventAggregator) reachedThreshold(aggregateKey, localKey string, now metav1.Time) bool {
	interval := time.Duration(e.maxIntervalInSeconds) * time.Second
	e.Lock()
	defer e.Unlock()
	group, _ := e.cache.Get(aggregateKey)
	if group.localKeys == nil || now.Sub(group.lastTimestamp.Time) > interval {
		group = aggregateRecord{localKeys: sets.New[string]()}
	}
	group.localKeys.Insert(localKey)
	group.lastTimestamp = now
	e.cache.Add(aggregateKey, group)
	if uint(group.localKeys.Len()) < e.maxEvents {
		return false
	}
	group.localKeys.PopAny()
	return true
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

// EventCorrelator sits between recorders and a sink. Each event passes
// three stages in order: the aggregator replaces a stream of similar events
// with one aggregate, the repeat log turns exact repeats into count updates
// of one stored event, and the spam filter drops what exceeds the budget of
// the event's source and object.
type EventCorrelator struct {
	aggregator *EventAggregator
	repeats    *repeatLog
	spam       EventFilterFunc
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
	o := options.withDefaults()
	return &EventCorrelator{
		aggregator: NewEventAggregator(o.LRUCacheSize, o.KeyFunc, o.MessageFunc, o.MaxEvents, o.MaxIntervalInSeconds, o.Clock),
		repeats:    &repeatLog{seen: newLRUCache[repeatRecord](o.LRUCacheSize)},
		spam:       NewEventSourceObjectSpamFilter(o.LRUCacheSize, o.BurstSize, o.QPS, o.Clock, o.SpamKeyFunc).Filter,
	}
}

// setDefault sets *field to value when it is the zero value.
func setDefault[T comparable](field *T, value T) {
	var zero T
	if *field == zero {
		*field = value
	}
}

// withDefaults returns o with its zero fields set to the defaults.
func (o CorrelatorOptions) withDefaults() CorrelatorOptions {
	setDefault(&o.LRUCacheSize, maxLruCacheEntries)
	setDefault(&o.BurstSize, defaultSpamBurst)
	setDefault(&o.QPS, defaultSpamQPS)
	setDefault(&o.MaxEvents, defaultAggregateMaxEvents)
	setDefault(&o.MaxIntervalInSeconds, defaultAggregateIntervalInSeconds)
	setDefault[clock.PassiveClock](&o.Clock, clock.RealClock{})
	// Functions are not comparable; nil means unset.
	if o.KeyFunc == nil {
		o.KeyFunc = EventAggregatorByReasonFunc
	}
	if o.MessageFunc == nil {
		o.MessageFunc = EventAggregatorByReasonMessageFunc
	}
	if o.SpamKeyFunc == nil {
		o.SpamKeyFunc = getSpamKey
	}
	return o
}

// EventCorrelate aggregates and counts newEvent, then applies the spam
// filter.
func (c *EventCorrelator) EventCorrelate(newEvent *v1.Event) (*EventCorrelateResult, error) {
	if newEvent == nil {
		return nil, fmt.Errorf("event is nil")
	}
	event, patch, err := c.repeats.observe(c.aggregator.EventAggregate(newEvent))
	if c.spam(event) {
		return &EventCorrelateResult{Skip: true}, nil
	}
	return &EventCorrelateResult{Event: event, Patch: patch}, err
}

// UpdateState records the server's copy of event (its name, version and
// count) so that later repeats patch it. event must not be nil.
func (c *EventCorrelator) UpdateState(event *v1.Event) {
	c.repeats.record(getEventKey(event), event)
}

// repeatLog counts identical events and turns repeats into patches of the
// stored event.
type repeatLog struct {
	mu   sync.Mutex
	seen *lruCache[repeatRecord] // guarded by mu
}

// repeatRecord is what the repeat log remembers about an event it emitted:
// how often, since when, and the server's name and version of it.
type repeatRecord struct {
	name, resourceVersion string
	firstTimestamp        metav1.Time
	count                 uint
}

// observe records event under key. For a repeat it returns the event
// renamed to the stored one with its count bumped, and a strategic merge
// patch carrying the new count, message and last timestamp.
func (l *repeatLog) observe(event *v1.Event, key string) (*v1.Event, []byte, error) {
	event = event.DeepCopy()
	l.mu.Lock()
	defer l.mu.Unlock()
	previous, seen := l.seen.Get(key)
	if !seen || previous.count == 0 {
		l.recordLocked(key, event)
		return event, nil, nil
	}
	event.Name, event.ResourceVersion = previous.name, previous.resourceVersion
	event.FirstTimestamp = previous.firstTimestamp
	event.Count = int32(previous.count) + 1
	l.recordLocked(key, event)
	patch, err := repeatPatch(event)
	return event, patch, err
}

// repeatPatch returns the strategic merge patch that turns the stored
// event into the repeat: its count, message and last timestamp.
func repeatPatch(repeat *v1.Event) ([]byte, error) {
	stored := repeat.DeepCopy()
	stored.Count, stored.Message = 0, ""
	stored.LastTimestamp = metav1.NewTime(time.Unix(0, 0))
	before, err := json.Marshal(stored)
	if err != nil {
		return nil, err
	}
	after, err := json.Marshal(repeat)
	if err != nil {
		return nil, err
	}
	return internalevents.CreateTwoWayMergePatch(before, after)
}

// record stores the server's view of event under key.
func (l *repeatLog) record(key string, event *v1.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.recordLocked(key, event)
}

func (l *repeatLog) recordLocked(key string, event *v1.Event) {
	l.seen.Add(key, repeatRecord{
		name:            event.Name,
		resourceVersion: event.ResourceVersion,
		firstTimestamp:  event.FirstTimestamp,
		count:           uint(event.Count),
	})
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
