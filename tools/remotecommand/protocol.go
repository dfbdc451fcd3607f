package remotecommand

import (
	"fmt"
	"io"
	"net/http"
	"sync"

	v1 "k8s.io/api/core/v1"
	remotecommandconsts "k8s.io/apimachinery/pkg/util/remotecommand"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// protocolVersion captures what differs between channel.k8s.io versions:
//
//	v1: all requested streams, error stream is plain text
//	v2: like v1, but no stderr stream when a TTY is used
//	v3: adds the resize stream
//	v4: the error stream carries a JSON metav1.Status (exit codes)
//	v5: like v4; stdin end is signalled to the server (websocket CLOSE)
type protocolVersion struct {
	// separateStderrWithTTY keeps a stderr stream even with a TTY (v1 only).
	separateStderrWithTTY bool
	// resize enables the resize stream.
	resize bool
	// decodeError interprets the error stream.
	decodeError errorDecoder
}

var (
	protocolV1 = protocolVersion{separateStderrWithTTY: true, decodeError: decodeTextError}
	protocolV2 = protocolVersion{decodeError: decodeTextError}
	protocolV3 = protocolVersion{resize: true, decodeError: decodeTextError}
	protocolV4 = protocolVersion{resize: true, decodeError: decodeStatusError}
	protocolV5 = protocolV4
)

// protocolFor maps a negotiated protocol name to its handler; an empty name
// means the server predates negotiation and speaks v1.
func protocolFor(name string) (protocolVersion, error) {
	switch name {
	case remotecommandconsts.StreamProtocolV5Name:
		return protocolV5, nil
	case remotecommandconsts.StreamProtocolV4Name:
		return protocolV4, nil
	case remotecommandconsts.StreamProtocolV3Name:
		return protocolV3, nil
	case remotecommandconsts.StreamProtocolV2Name:
		return protocolV2, nil
	case remotecommandconsts.StreamProtocolV1Name, "":
		return protocolV1, nil
	default:
		return protocolVersion{}, fmt.Errorf("unsupported streaming protocol %q", name)
	}
}

// session runs one exec/attach exchange with a protocol version.
type session struct {
	version protocolVersion
	options StreamOptions
	// ready, when set, is called once every stream has been created.
	ready func()
}

var _ streamProtocolHandler = session{}

func streamHeaders(streamType string) http.Header {
	h := http.Header{}
	h.Set(v1.StreamType, streamType)
	return h
}

// stream opens the streams the options ask for, copies data until the
// remote side closes its output, and returns the decoded error stream.
func (s session) stream(conn streamCreator) error {
	errorStream, err := conn.CreateStream(streamHeaders(v1.StreamTypeError))
	if err != nil {
		return fmt.Errorf("error creating error stream: %w", err)
	}
	// Nothing is ever written to the error stream by the client.
	errorStream.Close() //nolint:errcheck
	result := watchErrorStream(errorStream, s.version.decodeError)

	if s.options.Stdin != nil {
		stdin, err := conn.CreateStream(streamHeaders(v1.StreamTypeStdin))
		if err != nil {
			return fmt.Errorf("error creating stdin stream: %w", err)
		}
		// This goroutine ends when Stdin reaches EOF or the stream fails;
		// a blocked Stdin read outlives the session, as with any io.Copy.
		go func() {
			io.Copy(stdin, s.options.Stdin) //nolint:errcheck
			stdin.Close()                   //nolint:errcheck
		}()
	}

	var copies sync.WaitGroup
	receive := func(streamType string, dst io.Writer) error {
		stream, err := conn.CreateStream(streamHeaders(streamType))
		if err != nil {
			return fmt.Errorf("error creating %s stream: %w", streamType, err)
		}
		copies.Add(1)
		go func() {
			defer copies.Done()
			if _, err := io.Copy(dst, stream); err != nil {
				utilruntime.HandleError(fmt.Errorf("copying %s: %w", streamType, err))
			}
			// Keep consuming after dst failed: data left unread on one
			// stream would stall the whole connection, error stream
			// included, and the session would never end.
			io.Copy(io.Discard, stream) //nolint:errcheck
		}()
		return nil
	}
	if s.options.Stdout != nil {
		if err := receive(v1.StreamTypeStdout, s.options.Stdout); err != nil {
			return err
		}
	}
	if s.options.Stderr != nil && (!s.options.Tty || s.version.separateStderrWithTTY) {
		if err := receive(v1.StreamTypeStderr, s.options.Stderr); err != nil {
			return err
		}
	}
	if s.version.resize && s.options.Tty && s.options.TerminalSizeQueue != nil {
		resize, err := conn.CreateStream(streamHeaders(v1.StreamTypeResize))
		if err != nil {
			return fmt.Errorf("error creating resize stream: %w", err)
		}
		go sendResizes(s.options.TerminalSizeQueue, resize)
	}
	if s.ready != nil {
		s.ready()
	}

	copies.Wait()
	return <-result
}

// runSession runs a session for the negotiated protocol name on conn in a
// goroutine and returns its result; ready is passed on to the session.
func runSession(conn streamCreator, protocol string, options StreamOptions, ready func()) <-chan error {
	done := make(chan error, 1)
	version, err := protocolFor(protocol)
	if err != nil {
		done <- err
		return done
	}
	go func() { done <- session{version: version, options: options, ready: ready}.stream(conn) }()
	return done
}
