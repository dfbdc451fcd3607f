package remotecommand

import (
	"bytes"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	gwebsocket "github.com/gorilla/websocket"

	remotecommandconsts "k8s.io/apimachinery/pkg/util/remotecommand"

	restclient "github.com/kubeclient/client-go/rest"
)

// failingWriter rejects every write, like a closed terminal.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("terminal gone") }

func TestSPDYSessionEndsWhenOutputWriterFails(t *testing.T) {
	tests := []struct {
		name  string
		query string
		opts  func(stdin []byte) StreamOptions
	}{
		{
			name:  "stdout",
			query: "?stdin=1&stdout=1",
			opts: func(stdin []byte) StreamOptions {
				return StreamOptions{Stdin: bytes.NewReader(stdin), Stdout: failingWriter{}}
			},
		},
		{
			name:  "stdout and stderr",
			query: "?stdin=1&stdout=1&stderr=1",
			opts: func(stdin []byte) StreamOptions {
				return StreamOptions{Stdin: bytes.NewReader(stdin), Stdout: failingWriter{}, Stderr: failingWriter{}}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := spdyExecServer(t, fakeProcess{stderr: "warning\n"}, remotecommandconsts.StreamProtocolV4Name)
			u, _ := url.Parse(srv.URL + "/exec" + tc.query)
			e, err := NewSPDYExecutor(&restclient.Config{Host: srv.URL}, http.MethodPost, u)
			if err != nil {
				t.Fatal(err)
			}
			// Far more than the connection buffers: the server's echo only
			// completes if the client keeps reading stdout.
			stdin := bytes.Repeat([]byte("0123456789abcdef"), 1<<18)
			if err := e.StreamWithContext(testContext(t), tc.opts(stdin)); err != nil {
				t.Fatalf("StreamWithContext = %v, want the session to finish", err)
			}
		})
	}
}

func TestWebSocketStdinMessagesFitOneFrame(t *testing.T) {
	tests := []struct {
		name string
		size int
	}{
		{name: "small", size: 10},
		{name: "exactly one message", size: wsMaxPayload},
		{name: "one byte more", size: wsMaxPayload + 1},
		{name: "one megabyte", size: 1 << 20},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var (
				mu         sync.Mutex
				largest    int
				serverDone = make(chan struct{})
			)
			upgrader := gwebsocket.Upgrader{Subprotocols: []string{remotecommandconsts.StreamProtocolV5Name}}
			srv := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				defer close(serverDone)
				conn, err := upgrader.Upgrade(w, r, nil)
				if err != nil {
					return
				}
				defer conn.Close() //nolint:errcheck
				for {
					_, data, err := conn.ReadMessage()
					if err != nil || len(data) == 0 {
						return
					}
					switch data[0] {
					case remotecommandconsts.StreamStdIn:
						mu.Lock()
						largest = max(largest, len(data))
						mu.Unlock()
						conn.WriteMessage(gwebsocket.BinaryMessage, append([]byte{remotecommandconsts.StreamStdOut}, data[1:]...)) //nolint:errcheck
					case remotecommandconsts.StreamClose:
						conn.WriteMessage(gwebsocket.BinaryMessage, append([]byte{remotecommandconsts.StreamErr}, fakeProcess{}.exitStatus()...))                 //nolint:errcheck
						conn.WriteControl(gwebsocket.CloseMessage, gwebsocket.FormatCloseMessage(gwebsocket.CloseNormalClosure, ""), time.Now().Add(time.Second)) //nolint:errcheck
						return
					}
				}
			}))
			e, err := NewWebSocketExecutor(&restclient.Config{Host: srv.URL}, http.MethodGet, srv.URL+"/exec?stdin=1&stdout=1")
			if err != nil {
				t.Fatal(err)
			}
			stdin := bytes.Repeat([]byte{'x'}, tc.size)
			var stdout bytes.Buffer
			// bytes.Reader hands the whole input to a single Write.
			if err := e.StreamWithContext(testContext(t), StreamOptions{Stdin: bytes.NewReader(stdin), Stdout: &stdout}); err != nil {
				t.Fatalf("StreamWithContext = %v", err)
			}
			<-serverDone
			if !bytes.Equal(stdout.Bytes(), stdin) {
				t.Errorf("echoed %d bytes, sent %d", stdout.Len(), len(stdin))
			}
			mu.Lock()
			defer mu.Unlock()
			if largest > wsMaxPayload+1 {
				t.Errorf("largest stdin message = %d bytes, want at most %d", largest, wsMaxPayload+1)
			}
		})
	}
}

func TestNewWebSocketExecutorConfigError(t *testing.T) {
	_, err := NewWebSocketExecutor(&restclient.Config{TLSClientConfig: restclient.TLSClientConfig{CAFile: "/does/not/exist"}}, http.MethodGet, "http://localhost")
	if err == nil {
		t.Fatal("expected an error for an unusable config")
	}
	if want := "error creating websocket transports: "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("err = %q, want it prefixed with %q", err, want)
	}
}
