package remotecommand

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	gwebsocket "github.com/gorilla/websocket"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/httpstream"
	httpstreamspdy "k8s.io/apimachinery/pkg/util/httpstream/spdy"
	remotecommandconsts "k8s.io/apimachinery/pkg/util/remotecommand"
)

// fakeProcess is what the test servers pretend to run: "cat" with a fixed
// stderr line and exit code, recording terminal resizes.
type fakeProcess struct {
	stderr   string
	exitCode int
	// hang keeps the session open until the client goes away.
	hang    bool
	resizes chan TerminalSize
}

// exitStatus encodes the process result the way the kubelet does for v4+.
func (p fakeProcess) exitStatus() []byte {
	status := metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: metav1.StatusSuccess}
	if p.exitCode != 0 {
		status = metav1.Status{
			TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
			Status:   metav1.StatusFailure,
			Reason:   remotecommandconsts.NonZeroExitCodeReason,
			Message:  fmt.Sprintf("command terminated with non-zero exit code: error executing command, exit status %d", p.exitCode),
			Details: &metav1.StatusDetails{Causes: []metav1.StatusCause{
				{Type: remotecommandconsts.ExitCodeCauseType, Message: strconv.Itoa(p.exitCode)},
			}},
		}
	}
	b, _ := json.Marshal(status)
	return b
}

// spdyExecServer serves exec over SPDY for serverProtocols. Which streams to
// expect comes from the query (stdin, stdout, stderr, tty, resize), as the
// kubelet learns it from the exec request.
func spdyExecServer(t *testing.T, p fakeProcess, serverProtocols ...string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		protocol, err := httpstream.Handshake(r, w, serverProtocols)
		if err != nil {
			return
		}
		q := r.URL.Query()
		expected := map[string]bool{v1.StreamTypeError: true}
		for _, name := range []string{v1.StreamTypeStdin, v1.StreamTypeStdout, v1.StreamTypeStderr, v1.StreamTypeResize} {
			if q.Get(name) == "1" {
				expected[name] = true
			}
		}
		streamCh := make(chan httpstream.Stream, 8)
		conn := httpstreamspdy.NewResponseUpgrader().UpgradeResponse(w, r, func(s httpstream.Stream, _ <-chan struct{}) error {
			streamCh <- s
			return nil
		})
		if conn == nil {
			return
		}
		defer conn.Close() //nolint:errcheck
		streams := map[string]httpstream.Stream{}
		timeout := time.After(10 * time.Second)
		for len(streams) < len(expected) {
			select {
			case s := <-streamCh:
				streams[s.Headers().Get(v1.StreamType)] = s
			case <-timeout:
				t.Errorf("server: got streams %v, want %v", streams, expected)
				return
			}
		}
		runProcess(p, protocol, streams, conn.CloseChan())
	}))
	t.Cleanup(srv.Close)
	return srv
}

// runProcess plays fakeProcess on SPDY streams.
func runProcess(p fakeProcess, protocol string, streams map[string]httpstream.Stream, closed <-chan bool) {
	if resize := streams[v1.StreamTypeResize]; resize != nil && p.resizes != nil {
		go func() {
			dec := json.NewDecoder(resize)
			for {
				var size TerminalSize
				if dec.Decode(&size) != nil {
					return
				}
				p.resizes <- size
			}
		}()
	}
	if p.hang {
		<-closed
		return
	}
	if stdout := streams[v1.StreamTypeStdout]; stdout != nil {
		if stdin := streams[v1.StreamTypeStdin]; stdin != nil {
			io.Copy(stdout, stdin) //nolint:errcheck
		} else {
			io.WriteString(stdout, "hello\n") //nolint:errcheck
		}
		stdout.Close() //nolint:errcheck
	}
	if stderr := streams[v1.StreamTypeStderr]; stderr != nil {
		io.WriteString(stderr, p.stderr) //nolint:errcheck
		stderr.Close()                   //nolint:errcheck
	}
	errStream := streams[v1.StreamTypeError]
	switch protocol {
	case remotecommandconsts.StreamProtocolV4Name, remotecommandconsts.StreamProtocolV5Name:
		errStream.Write(p.exitStatus()) //nolint:errcheck
	default:
		if p.exitCode != 0 {
			fmt.Fprintf(errStream, "command exited with %d", p.exitCode)
		}
	}
	errStream.Close() //nolint:errcheck
}

// wsExecServer serves exec over WebSocket with the channel-byte framing of
// v4/v5.channel.k8s.io.
func wsExecServer(t *testing.T, p fakeProcess, serverProtocols ...string) *httptest.Server {
	t.Helper()
	upgrader := gwebsocket.Upgrader{Subprotocols: serverProtocols}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !gwebsocket.IsWebSocketUpgrade(r) {
			http.Error(w, "websocket required", http.StatusBadRequest)
			return
		}
		conn, err := upgrader.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer conn.Close() //nolint:errcheck
		q := r.URL.Query()
		send := func(channel byte, data []byte) {
			conn.WriteMessage(gwebsocket.BinaryMessage, append([]byte{channel}, data...)) //nolint:errcheck
		}
		wantStdinClose := q.Get("stdin") == "1"
		wantResize := q.Get("resize") == "1"
		if !wantStdinClose {
			send(remotecommandconsts.StreamStdOut, []byte("hello\n"))
		}
		for wantStdinClose || wantResize || p.hang {
			mt, data, err := conn.ReadMessage()
			if err != nil {
				return
			}
			if mt != gwebsocket.BinaryMessage || len(data) == 0 {
				continue
			}
			switch data[0] {
			case remotecommandconsts.StreamStdIn:
				send(remotecommandconsts.StreamStdOut, data[1:])
			case remotecommandconsts.StreamResize:
				var size TerminalSize
				if json.Unmarshal(data[1:], &size) == nil && p.resizes != nil {
					p.resizes <- size
				}
				wantResize = false
			case remotecommandconsts.StreamClose:
				if len(data) == 2 && data[1] == remotecommandconsts.StreamStdIn {
					wantStdinClose = false
				}
			}
		}
		if q.Get("stderr") == "1" {
			send(remotecommandconsts.StreamStdErr, []byte(p.stderr))
		}
		send(remotecommandconsts.StreamErr, p.exitStatus())
		conn.WriteControl(gwebsocket.CloseMessage, gwebsocket.FormatCloseMessage(gwebsocket.CloseNormalClosure, ""), time.Now().Add(time.Second)) //nolint:errcheck
	}))
	t.Cleanup(srv.Close)
	return srv
}

// sizeQueue hands out sizes from a channel; a closed channel ends it.
type sizeQueue chan TerminalSize

func (q sizeQueue) Next() *TerminalSize {
	size, ok := <-q
	if !ok {
		return nil
	}
	return &size
}
