package remotecommand

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/httpstream"
	remotecommandconsts "k8s.io/apimachinery/pkg/util/remotecommand"

	restclient "github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/util/exec"
)

const query = "?stdin=1&stdout=1&stderr=1"

func TestSPDYExecutorProtocols(t *testing.T) {
	tests := []struct {
		protocol string
		exitCode int
		wantErr  func(error) bool
	}{
		{remotecommandconsts.StreamProtocolV5Name, 0, func(err error) bool { return err == nil }},
		{remotecommandconsts.StreamProtocolV4Name, 3, exitCode(3)},
		{remotecommandconsts.StreamProtocolV5Name, 42, exitCode(42)},
		{remotecommandconsts.StreamProtocolV3Name, 2, messageContains("command exited with 2")},
		{remotecommandconsts.StreamProtocolV2Name, 0, func(err error) bool { return err == nil }},
		{remotecommandconsts.StreamProtocolV1Name, 1, messageContains("command exited with 1")},
	}
	for _, tt := range tests {
		t.Run(tt.protocol, func(t *testing.T) {
			srv := spdyExecServer(t, fakeProcess{stderr: "warning\n", exitCode: tt.exitCode}, tt.protocol)
			u, _ := url.Parse(srv.URL + "/exec" + query)
			e, err := NewSPDYExecutor(&restclient.Config{Host: srv.URL}, http.MethodPost, u)
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			err = e.StreamWithContext(testContext(t), StreamOptions{
				Stdin: strings.NewReader("some input\n"), Stdout: &stdout, Stderr: &stderr,
			})
			if !tt.wantErr(err) {
				t.Errorf("unexpected result %v", err)
			}
			if stdout.String() != "some input\n" {
				t.Errorf("stdout = %q, want the echoed stdin", stdout.String())
			}
			if stderr.String() != "warning\n" {
				t.Errorf("stderr = %q", stderr.String())
			}
		})
	}
}

func exitCode(code int) func(error) bool {
	return func(err error) bool {
		var exitErr exec.ExitError
		return errors.As(err, &exitErr) && exitErr.Exited() && exitErr.ExitStatus() == code
	}
}

func messageContains(s string) func(error) bool {
	return func(err error) bool { return err != nil && strings.Contains(err.Error(), s) }
}

func TestSPDYExecutorForProtocolsRestrictsOffer(t *testing.T) {
	srv := spdyExecServer(t, fakeProcess{}, remotecommandconsts.StreamProtocolV4Name)
	u, _ := url.Parse(srv.URL + "/exec?stdout=1")
	cfg := &restclient.Config{Host: srv.URL}
	rt, upgrader := spdyTransport(t, cfg)
	e, err := NewSPDYExecutorForProtocols(rt, upgrader, http.MethodPost, u, remotecommandconsts.StreamProtocolV2Name)
	if err != nil {
		t.Fatal(err)
	}
	err = e.StreamWithContext(testContext(t), StreamOptions{Stdout: &bytes.Buffer{}})
	if err == nil || !strings.Contains(err.Error(), "unable to negotiate") && !strings.Contains(err.Error(), "403") {
		t.Errorf("err = %v, want a negotiation failure", err)
	}
}

func TestSPDYTTYResize(t *testing.T) {
	resizes := make(chan TerminalSize, 2)
	srv := spdyExecServer(t, fakeProcess{resizes: resizes}, remotecommandconsts.StreamProtocolV4Name)
	u, _ := url.Parse(srv.URL + "/exec?stdin=1&stdout=1&resize=1&tty=1")
	rt, upgrader := spdyTransport(t, &restclient.Config{Host: srv.URL})
	e, err := NewSPDYExecutorForTransports(rt, upgrader, http.MethodPost, u)
	if err != nil {
		t.Fatal(err)
	}
	queue := make(sizeQueue, 1)
	queue <- TerminalSize{Width: 120, Height: 40}
	defer close(queue)

	// Stdin stays open until the resize has been seen, so the session
	// cannot end before the resize stream was read.
	stdinR, stdinW := newPipe()
	var stdout bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- e.StreamWithContext(testContext(t), StreamOptions{
			Stdin: stdinR, Stdout: &stdout, Stderr: &bytes.Buffer{}, Tty: true, TerminalSizeQueue: queue,
		})
	}()
	select {
	case got := <-resizes:
		if got != (TerminalSize{Width: 120, Height: 40}) {
			t.Errorf("resize = %+v", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no resize reached the server")
	}
	stdinW.Write([]byte("ls\n")) //nolint:errcheck
	stdinW.Close()               //nolint:errcheck
	if err := <-done; err != nil {
		t.Fatalf("StreamWithContext: %v", err)
	}
	if stdout.String() != "ls\n" {
		t.Errorf("stdout = %q", stdout.String())
	}
}

func TestSPDYContextCancel(t *testing.T) {
	srv := spdyExecServer(t, fakeProcess{hang: true}, remotecommandconsts.StreamProtocolV5Name)
	u, _ := url.Parse(srv.URL + "/exec?stdout=1")
	e, err := NewSPDYExecutor(&restclient.Config{Host: srv.URL}, http.MethodPost, u)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.StreamWithContext(ctx, StreamOptions{Stdout: &bytes.Buffer{}}) }()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("StreamWithContext did not return after cancel")
	}
}

func TestSPDYRejectRedirects(t *testing.T) {
	target := spdyExecServer(t, fakeProcess{}, remotecommandconsts.StreamProtocolV4Name)
	redirect := http.NewServeMux()
	redirect.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/exec?stdout=1", http.StatusFound)
	})
	srv := newServer(t, redirect)
	u, _ := url.Parse(srv.URL + "/exec")
	rt, upgrader := spdyTransport(t, &restclient.Config{Host: srv.URL})
	e, err := NewSPDYExecutorRejectRedirects(rt, upgrader, http.MethodPost, u)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.StreamWithContext(testContext(t), StreamOptions{Stdout: &bytes.Buffer{}}); err == nil || !strings.Contains(err.Error(), "redirect") {
		t.Errorf("err = %v, want a redirect refusal", err)
	}
}

func TestWebSocketExecutor(t *testing.T) {
	tests := []struct {
		name     string
		server   []string
		query    string
		stdin    string
		exitCode int
		wantOut  string
	}{
		{name: "v5 echoes stdin and closes it", server: []string{remotecommandconsts.StreamProtocolV5Name}, query: query, stdin: "abc\n", exitCode: 7, wantOut: "abc\n"},
		{name: "v4 without stdin", server: []string{remotecommandconsts.StreamProtocolV4Name}, query: "?stdout=1&stderr=1", wantOut: "hello\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := wsExecServer(t, fakeProcess{stderr: "oops\n", exitCode: tt.exitCode}, tt.server...)
			e, err := NewWebSocketExecutor(&restclient.Config{Host: srv.URL}, http.MethodGet, srv.URL+"/exec"+tt.query)
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			opts := StreamOptions{Stdout: &stdout, Stderr: &stderr}
			if tt.stdin != "" {
				opts.Stdin = strings.NewReader(tt.stdin)
			}
			err = e.StreamWithContext(testContext(t), opts)
			if tt.exitCode != 0 {
				if !exitCode(tt.exitCode)(err) {
					t.Errorf("err = %v, want exit code %d", err, tt.exitCode)
				}
			} else if err != nil {
				t.Errorf("err = %v", err)
			}
			if stdout.String() != tt.wantOut || stderr.String() != "oops\n" {
				t.Errorf("stdout = %q, stderr = %q", stdout.String(), stderr.String())
			}
		})
	}
}

func TestWebSocketResizeAndCancel(t *testing.T) {
	resizes := make(chan TerminalSize, 1)
	srv := wsExecServer(t, fakeProcess{hang: true, resizes: resizes}, remotecommandconsts.StreamProtocolV5Name)
	e, err := NewWebSocketExecutorForProtocols(&restclient.Config{Host: srv.URL}, http.MethodGet, srv.URL+"/exec?stdout=1&tty=1", remotecommandconsts.StreamProtocolV5Name)
	if err != nil {
		t.Fatal(err)
	}
	queue := make(sizeQueue, 1)
	queue <- TerminalSize{Width: 80, Height: 24}
	defer close(queue)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- e.StreamWithContext(ctx, StreamOptions{Stdout: &bytes.Buffer{}, Tty: true, TerminalSizeQueue: queue})
	}()
	select {
	case got := <-resizes:
		if got != (TerminalSize{Width: 80, Height: 24}) {
			t.Errorf("resize = %+v", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no resize message on channel 4")
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("StreamWithContext did not return after cancel")
	}
}

func TestFallbackExecutor(t *testing.T) {
	// One endpoint that refuses websockets but speaks SPDY, like an old kubelet.
	spdySrv := spdyExecServer(t, fakeProcess{stderr: "e\n", exitCode: 5}, remotecommandconsts.StreamProtocolV4Name)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") == "websocket" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"websockets not supported","reason":"BadRequest","code":400}`)) //nolint:errcheck
			return
		}
		target, _ := url.Parse(spdySrv.URL)
		r.URL.Scheme, r.URL.Host = target.Scheme, target.Host
		spdySrv.Config.Handler.ServeHTTP(w, r)
	})
	srv := newServer(t, mux)
	cfg := &restclient.Config{Host: srv.URL}
	ws, err := NewWebSocketExecutor(cfg, http.MethodGet, srv.URL+"/exec"+query)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(srv.URL + "/exec" + query)
	sp, err := NewSPDYExecutor(cfg, http.MethodPost, u)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewFallbackExecutor(ws, sp, func(err error) bool { return httpstream.IsUpgradeFailure(err) || httpstream.IsHTTPSProxyError(err) })
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err = e.StreamWithContext(testContext(t), StreamOptions{Stdin: strings.NewReader("x"), Stdout: &stdout, Stderr: &stderr})
	if !exitCode(5)(err) {
		t.Errorf("err = %v, want exit code 5 from the SPDY fallback", err)
	}
	if stdout.String() != "x" || stderr.String() != "e\n" {
		t.Errorf("stdout = %q, stderr = %q", stdout.String(), stderr.String())
	}

	// Without fallback the websocket refusal surfaces as is.
	noFallback, _ := NewFallbackExecutor(ws, sp, func(error) bool { return false })
	err = noFallback.Stream(StreamOptions{Stdout: &bytes.Buffer{}})
	if !httpstream.IsUpgradeFailure(err) || !strings.Contains(err.Error(), "websockets not supported") {
		t.Errorf("err = %v, want the websocket upgrade failure", err)
	}

	if _, err := NewFallbackExecutor(nil, sp, func(error) bool { return true }); err == nil {
		t.Error("nil primary accepted")
	}
	if _, err := NewFallbackExecutor(ws, sp, nil); err == nil {
		t.Error("nil shouldFallback accepted")
	}
}

func TestDecodeStatusError(t *testing.T) {
	tests := []struct {
		name    string
		message string
		check   func(error) bool
	}{
		{"empty", "", func(err error) bool { return err == nil }},
		{"success", `{"status":"Success"}`, func(err error) bool { return err == nil }},
		{"exit code", `{"status":"Failure","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"9"}]}}`, exitCode(9)},
		{"bad exit code", `{"status":"Failure","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"nine"}]}}`, messageContains(`invalid exit code value "nine"`)},
		{"no details", `{"status":"Failure","reason":"NonZeroExitCode"}`, messageContains("details must be set")},
		{"no exit cause", `{"status":"Failure","reason":"NonZeroExitCode","details":{"causes":[{"reason":"Other","message":"1"}]}}`, messageContains("no ExitCode cause given")},
		{"other failure", `{"status":"Failure","message":"container not found"}`, func(err error) bool { return err != nil && err.Error() == "container not found" }},
		{"unknown status", `{"status":"Pending"}`, func(err error) bool {
			return err != nil && err.Error() == "error stream protocol error: unknown error"
		}},
		{"garbage", `not json`, messageContains("error stream protocol error")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := decodeStatusError([]byte(tt.message)); !tt.check(err) {
				t.Errorf("decodeStatusError(%q) = %v", tt.message, err)
			}
		})
	}
}
