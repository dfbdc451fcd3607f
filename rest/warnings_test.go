package rest

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// contextWarningRecorder is a WarningHandlerWithContext that remembers the
// context value "origin" next to each text.
type contextWarningRecorder struct {
	mu   sync.Mutex
	seen []string
}

type originKey struct{}

func (w *contextWarningRecorder) HandleWarningHeaderWithContext(ctx context.Context, code int, agent, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	origin, _ := ctx.Value(originKey{}).(string)
	w.seen = append(w.seen, origin+":"+text)
}

func (w *contextWarningRecorder) texts() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.seen...)
}

func warningServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Warning", `299 - "v1 Pod is deprecated"`)
		w.Header().Add("Warning", `299 kube-apiserver "second warning", 299 - "third"`)
		w.Header().Add("Warning", `199 - "not a 299"`)
		writeJSON(t, w, 200, &corev1.PodList{})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func setDefaultWarningHandlerForTest(t *testing.T, h WarningHandlerWithContext) {
	old := currentDefaultWarningHandler()
	SetDefaultWarningHandlerWithContext(h)
	t.Cleanup(func() { SetDefaultWarningHandlerWithContext(old) })
}

func TestWarningsReachHandlers(t *testing.T) {
	srv := warningServer(t)
	ctx := context.WithValue(context.Background(), originKey{}, "ctx")

	t.Run("result carries warnings", func(t *testing.T) {
		setDefaultWarningHandlerForTest(t, NoWarnings{})
		res := coreV1Client(t, srv).Get().Resource("pods").Do(ctx)
		w := res.Warnings()
		if len(w) != 4 || w[0].Text != "v1 Pod is deprecated" || w[1].Agent != "kube-apiserver" || w[3].Code != 199 {
			t.Errorf("warnings = %+v", w)
		}
	})
	t.Run("default handler", func(t *testing.T) {
		rec := &contextWarningRecorder{}
		setDefaultWarningHandlerForTest(t, rec)
		_ = coreV1Client(t, srv).Get().Resource("pods").Do(ctx)
		if got := rec.texts(); len(got) != 4 || got[0] != "ctx:v1 Pod is deprecated" {
			t.Errorf("default handler saw %v", got)
		}
	})
	t.Run("default handler without context", func(t *testing.T) {
		old := currentDefaultWarningHandler()
		t.Cleanup(func() { SetDefaultWarningHandlerWithContext(old) })
		rec := &warningRecorder{}
		SetDefaultWarningHandler(rec)
		_ = coreV1Client(t, srv).Get().Resource("pods").Do(ctx)
		if got := rec.texts(); len(got) != 4 {
			t.Errorf("default handler saw %v", got)
		}
		SetDefaultWarningHandler(nil)
		// With no default at all warnings are still parsed, just not handled.
		if w := coreV1Client(t, srv).Get().Resource("pods").Do(ctx).Warnings(); len(w) != 4 {
			t.Errorf("warnings = %v", w)
		}
	})
	t.Run("config handlers", func(t *testing.T) {
		setDefaultWarningHandlerForTest(t, NoWarnings{})
		plain, withCtx := &warningRecorder{}, &contextWarningRecorder{}
		c := coreV1Client(t, srv, func(c *Config) { c.WarningHandler = plain })
		_ = c.Get().Resource("pods").Do(ctx)
		if len(plain.texts()) != 4 {
			t.Errorf("config WarningHandler saw %v", plain.texts())
		}
		plain2 := &warningRecorder{}
		c = coreV1Client(t, srv, func(c *Config) { c.WarningHandler, c.WarningHandlerWithContext = plain2, withCtx })
		_ = c.Get().Resource("pods").Do(ctx)
		if len(plain2.texts()) != 0 || len(withCtx.texts()) != 4 {
			t.Errorf("WarningHandlerWithContext should win: plain=%v ctx=%v", plain2.texts(), withCtx.texts())
		}
	})
	t.Run("request handlers", func(t *testing.T) {
		clientRec, reqRec := &warningRecorder{}, &warningRecorder{}
		defaultRec := &contextWarningRecorder{}
		setDefaultWarningHandlerForTest(t, defaultRec)
		c := coreV1Client(t, srv, func(c *Config) { c.WarningHandler = clientRec })
		_ = c.Get().Resource("pods").WarningHandler(reqRec).Do(ctx)
		if len(reqRec.texts()) != 4 || len(clientRec.texts()) != 0 {
			t.Errorf("request handler: req=%v client=%v", reqRec.texts(), clientRec.texts())
		}
		ctxRec := &contextWarningRecorder{}
		_ = c.Get().Resource("pods").WarningHandlerWithContext(ctxRec).Do(ctx)
		if len(ctxRec.texts()) != 4 {
			t.Errorf("request context handler saw %v", ctxRec.texts())
		}
		// nil falls back to the process default, not to the client's.
		_ = c.Get().Resource("pods").WarningHandler(nil).Do(ctx)
		if len(defaultRec.texts()) != 4 || len(clientRec.texts()) != 0 {
			t.Errorf("nil handler: default=%v client=%v", defaultRec.texts(), clientRec.texts())
		}
		_, _ = c.Get().Resource("pods").WarningHandlerWithContext(nil).DoRaw(ctx)
	})
}

func TestWarningWriter(t *testing.T) {
	tests := []struct {
		name  string
		opts  WarningWriterOptions
		want  string
		count int
	}{
		{"plain", WarningWriterOptions{}, "Warning: a\nWarning: b\nWarning: a\n", 3},
		{"deduplicated", WarningWriterOptions{Deduplicate: true}, "Warning: a\nWarning: b\n", 2},
		{"color", WarningWriterOptions{Color: true, Deduplicate: true}, "\u001b[33;1mWarning:\u001b[0m a\n\u001b[33;1mWarning:\u001b[0m b\n", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := NewWarningWriter(&buf, tc.opts)
			w.HandleWarningHeader(299, "-", "a")
			w.HandleWarningHeader(299, "-", "b")
			w.HandleWarningHeader(199, "-", "ignored: not 299")
			w.HandleWarningHeader(299, "-", "")
			w.HandleWarningHeader(299, "-", "a")
			if buf.String() != tc.want {
				t.Errorf("wrote %q, want %q", buf.String(), tc.want)
			}
			if w.WarningCount() != tc.count {
				t.Errorf("count = %d, want %d", w.WarningCount(), tc.count)
			}
		})
	}
}

func TestWarningWriterConcurrent(t *testing.T) {
	var buf bytes.Buffer
	w := NewWarningWriter(&buf, WarningWriterOptions{Deduplicate: true})
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.HandleWarningHeader(299, "-", "same")
		}()
	}
	wg.Wait()
	if buf.String() != "Warning: same\n" || w.WarningCount() != 1 {
		t.Errorf("wrote %q", buf.String())
	}
}

func TestBuiltinHandlersDoNotPanic(t *testing.T) {
	for _, h := range []WarningHandler{NoWarnings{}, WarningLogger{}} {
		h.HandleWarningHeader(299, "-", "text")
		h.HandleWarningHeader(199, "-", "text")
	}
	for _, h := range []WarningHandlerWithContext{NoWarnings{}, WarningLogger{}} {
		h.HandleWarningHeaderWithContext(context.Background(), 299, "-", "text")
	}
}
