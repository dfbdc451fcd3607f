package rest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"

	"k8s.io/apimachinery/pkg/util/net"
	"k8s.io/klog/v2"
)

// WarningHandler receives each Warning header of a response.
type WarningHandler interface {
	// HandleWarningHeader is called with the code, agent and text of one
	// warning.
	HandleWarningHeader(code int, agent string, text string)
}

// WarningHandlerWithContext is WarningHandler with the request's context, so
// handlers can log through the contextual logger.
type WarningHandlerWithContext interface {
	// HandleWarningHeaderWithContext is called with the code, agent and
	// text of one warning.
	HandleWarningHeaderWithContext(ctx context.Context, code int, agent string, text string)
}

// defaultWarningHandler receives warnings of clients and requests that set no
// handler of their own. Guarded by defaultWarningHandlerLock.
var (
	defaultWarningHandlerLock sync.RWMutex
	defaultWarningHandler     WarningHandlerWithContext = WarningLogger{}
)

// SetDefaultWarningHandler replaces the process-wide handler used by clients
// that configure none. Warnings are logged until this is called. NoWarnings,
// WarningLogger and NewWarningWriter are ready-made handlers.
//
// Code that uses contextual logging should call
// SetDefaultWarningHandlerWithContext instead.
func SetDefaultWarningHandler(l WarningHandler) {
	if l == nil {
		SetDefaultWarningHandlerWithContext(nil)
		return
	}
	SetDefaultWarningHandlerWithContext(warningHandlerIgnoringContext{l})
}

// SetDefaultWarningHandlerWithContext is SetDefaultWarningHandler for a
// context-aware handler.
func SetDefaultWarningHandlerWithContext(l WarningHandlerWithContext) {
	defaultWarningHandlerLock.Lock()
	defer defaultWarningHandlerLock.Unlock()
	defaultWarningHandler = l
}

func currentDefaultWarningHandler() WarningHandlerWithContext {
	defaultWarningHandlerLock.RLock()
	defer defaultWarningHandlerLock.RUnlock()
	return defaultWarningHandler
}

// warningHandlerIgnoringContext adapts a WarningHandler to
// WarningHandlerWithContext.
type warningHandlerIgnoringContext struct {
	handler WarningHandler
}

func (w warningHandlerIgnoringContext) HandleWarningHeaderWithContext(_ context.Context, code int, agent, text string) {
	w.handler.HandleWarningHeader(code, agent, text)
}

// NoWarnings is a handler that drops every warning.
type NoWarnings struct{}

// HandleWarningHeader does nothing.
func (NoWarnings) HandleWarningHeader(code int, agent string, message string) {}

// HandleWarningHeaderWithContext does nothing.
func (NoWarnings) HandleWarningHeaderWithContext(ctx context.Context, code int, agent string, message string) {
}

// WarningLogger is a handler that logs every non-empty warning with code 299.
type WarningLogger struct{}

// HandleWarningHeader logs the warning with the global logger.
func (w WarningLogger) HandleWarningHeader(code int, agent string, message string) {
	w.HandleWarningHeaderWithContext(context.Background(), code, agent, message)
}

// HandleWarningHeaderWithContext logs the warning with the logger of ctx.
func (WarningLogger) HandleWarningHeaderWithContext(ctx context.Context, code int, agent string, message string) {
	if code != 299 || message == "" {
		return
	}
	klog.FromContext(ctx).Info("Warning: " + message)
}

var (
	_ WarningHandler            = NoWarnings{}
	_ WarningHandlerWithContext = NoWarnings{}
	_ WarningHandler            = WarningLogger{}
	_ WarningHandlerWithContext = WarningLogger{}
	_ WarningHandler            = &warningWriter{}
)

// WarningWriterOptions tunes the handler made by NewWarningWriter.
type WarningWriterOptions struct {
	// Deduplicate writes each distinct message only once. The set of seen
	// messages grows for the life of the handler.
	Deduplicate bool
	// Color highlights the "Warning:" prefix with ANSI escapes.
	Color bool
}

// warningWriter writes code 299 warnings to out, one per line.
type warningWriter struct {
	out  io.Writer
	opts WarningWriterOptions

	// mu guards count, seen and writes to out.
	mu    sync.Mutex
	count int
	seen  map[string]struct{}
}

// NewWarningWriter returns a WarningHandler that prints each code 299
// warning to out as "Warning: <text>".
func NewWarningWriter(out io.Writer, opts WarningWriterOptions) *warningWriter {
	w := &warningWriter{out: out, opts: opts}
	if opts.Deduplicate {
		w.seen = map[string]struct{}{}
	}
	return w
}

const (
	ansiBoldYellow = "\u001b[33;1m"
	ansiReset      = "\u001b[0m"
)

// HandleWarningHeader prints the warning unless it is not a 299 warning, is
// empty, or was printed before and deduplication is on.
func (w *warningWriter) HandleWarningHeader(code int, agent string, message string) {
	if code != 299 || message == "" {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.seen != nil {
		if _, dup := w.seen[message]; dup {
			return
		}
		w.seen[message] = struct{}{}
	}
	w.count++
	prefix := "Warning:"
	if w.opts.Color {
		prefix = ansiBoldYellow + prefix + ansiReset
	}
	fmt.Fprintf(w.out, "%s %s\n", prefix, message)
}

// WarningCount returns how many warnings were printed.
func (w *warningWriter) WarningCount() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.count
}

// handleWarnings parses the Warning headers, passes each to handler (or the
// default handler when nil) and returns them.
func handleWarnings(ctx context.Context, headers http.Header, handler WarningHandlerWithContext) []net.WarningHeader {
	if handler == nil {
		handler = currentDefaultWarningHandler()
	}
	warnings, _ := net.ParseWarningHeaders(headers["Warning"])
	if handler == nil {
		return warnings
	}
	for _, w := range warnings {
		handler.HandleWarningHeaderWithContext(ctx, w.Code, w.Agent, w.Text)
	}
	return warnings
}
