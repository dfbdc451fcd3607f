package portforward

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kubeclient/client-go/internal/streamadapt"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/httpstream"
	streamhttp "k8s.io/streaming/pkg/httpstream"
	netutils "k8s.io/utils/net"
)

// PortForwardProtocolV1Name is the subprotocol used for port forwarding.
const PortForwardProtocolV1Name = "portforward.k8s.io"

var (
	// ErrLostConnectionToPod is returned by ForwardPorts when the upgraded
	// connection to the pod closes while forwarding.
	ErrLostConnectionToPod = errors.New("lost connection to pod")
)

// ForwardedPort contains a Local:Remote port pairing.
type ForwardedPort struct {
	Local  uint16
	Remote uint16
}

// listenAddress is one local address to listen on; failureMode tells
// whether failing to listen there is fatal ("all") or tolerated as long as
// another address of the same name works ("any", used for localhost).
type listenAddress struct {
	address     string
	protocol    string
	failureMode string
}

// PortForwarder listens on local ports and forwards each accepted connection
// to the pod through one upgraded connection.
//
// ForwardPorts owns the accept goroutines; they end when stopChan is closed,
// Close is called or the upgraded connection is lost.
type PortForwarder struct {
	addresses []listenAddress
	ports     []ForwardedPort
	stopChan  <-chan struct{}

	dialer     httpstream.Dialer
	streamConn httpstream.Connection
	out        io.Writer
	errOut     io.Writer

	// Ready is closed once every listener is up.
	Ready chan struct{}

	listenersMu sync.Mutex // guards listeners and closed
	listeners   []net.Listener
	closed      bool

	requestIDs atomic.Int64 // request ids handed out so far
}

// parsePorts turns "L:R", ":R" (any free local port) and "P" (same port
// locally and remotely) into ForwardedPorts.
func parsePorts(ports []string) ([]ForwardedPort, error) {
	var forwards []ForwardedPort
	for _, spec := range ports {
		var local, remote string
		parts := strings.Split(spec, ":")
		switch len(parts) {
		case 1:
			local, remote = parts[0], parts[0]
		case 2:
			local, remote = parts[0], parts[1]
			if local == "" {
				local = "0"
			}
		default:
			return nil, fmt.Errorf("invalid port format %q", spec)
		}
		localPort, err := strconv.ParseUint(local, 10, 16)
		if err != nil {
			return nil, fmt.Errorf("error parsing local port %q in %q: %w", local, spec, err)
		}
		remotePort, err := strconv.ParseUint(remote, 10, 16)
		if err != nil {
			return nil, fmt.Errorf("error parsing remote port %q in %q: %w", remote, spec, err)
		}
		if remotePort == 0 {
			return nil, fmt.Errorf("remote port must be > 0 in %q", spec)
		}
		forwards = append(forwards, ForwardedPort{Local: uint16(localPort), Remote: uint16(remotePort)})
	}
	return forwards, nil
}

// parseAddresses accepts "localhost" (IPv4 and IPv6 loopback, at least one
// must work) and literal IP addresses (each must work).
func parseAddresses(addresses []string) ([]listenAddress, error) {
	var out []listenAddress
	seen := map[string]bool{}
	add := func(a listenAddress) {
		if !seen[a.address] {
			seen[a.address] = true
			out = append(out, a)
		}
	}
	for _, addr := range addresses {
		if addr == "localhost" {
			add(listenAddress{address: "127.0.0.1", protocol: "tcp4", failureMode: "any"})
			add(listenAddress{address: "::1", protocol: "tcp6", failureMode: "any"})
			continue
		}
		// Like the API machinery, accept IPv4 octets with leading zeros.
		ip := netutils.ParseIPSloppy(addr)
		if ip == nil {
			return nil, fmt.Errorf("%q is neither an IP address nor localhost", addr)
		}
		protocol := "tcp6"
		if ip.To4() != nil {
			protocol = "tcp4"
		}
		add(listenAddress{address: ip.String(), protocol: protocol, failureMode: "all"})
	}
	return out, nil
}

// New creates a PortForwarder listening on localhost.
func New(dialer httpstream.Dialer, ports []string, stopChan <-chan struct{}, readyChan chan struct{}, out, errOut io.Writer) (*PortForwarder, error) {
	return NewOnAddresses(dialer, []string{"localhost"}, ports, stopChan, readyChan, out, errOut)
}

// NewForStreaming is New for a k8s.io/streaming dialer.
func NewForStreaming(dialer streamhttp.Dialer, ports []string, stopChan <-chan struct{}, readyChan chan struct{}, out, errOut io.Writer) (*PortForwarder, error) {
	return New(streamadapt.DialerFromStreaming(dialer), ports, stopChan, readyChan, out, errOut)
}

// NewOnAddresses creates a PortForwarder listening on addresses; forwarding
// stops when stopChan is closed.
func NewOnAddresses(dialer httpstream.Dialer, addresses []string, ports []string, stopChan <-chan struct{}, readyChan chan struct{}, out, errOut io.Writer) (*PortForwarder, error) {
	if dialer == nil {
		return nil, errors.New("portforward: dialer is nil")
	}
	if len(addresses) == 0 {
		return nil, errors.New("you must specify at least 1 address")
	}
	if len(ports) == 0 {
		return nil, errors.New("you must specify at least 1 port")
	}
	parsedPorts, err := parsePorts(ports)
	if err != nil {
		return nil, err
	}
	parsedAddresses, err := parseAddresses(addresses)
	if err != nil {
		return nil, err
	}
	return &PortForwarder{
		dialer:    dialer,
		addresses: parsedAddresses,
		ports:     parsedPorts,
		stopChan:  stopChan,
		Ready:     readyChan,
		out:       out,
		errOut:    errOut,
	}, nil
}

// NewOnAddressesForStreaming is NewOnAddresses for a k8s.io/streaming dialer.
func NewOnAddressesForStreaming(dialer streamhttp.Dialer, addresses []string, ports []string, stopChan <-chan struct{}, readyChan chan struct{}, out, errOut io.Writer) (*PortForwarder, error) {
	return NewOnAddresses(streamadapt.DialerFromStreaming(dialer), addresses, ports, stopChan, readyChan, out, errOut)
}

// NewOnAddressesWithContext is NewOnAddresses stopping when ctx is done.
func NewOnAddressesWithContext(ctx context.Context, dialer httpstream.Dialer, addresses []string, ports []string, readyChan chan struct{}, out, errOut io.Writer) (*PortForwarder, error) {
	return NewOnAddresses(dialer, addresses, ports, ctx.Done(), readyChan, out, errOut)
}

// NewOnAddressesForStreamingWithContext is NewOnAddressesWithContext for a
// k8s.io/streaming dialer.
func NewOnAddressesForStreamingWithContext(ctx context.Context, dialer streamhttp.Dialer, addresses []string, ports []string, readyChan chan struct{}, out, errOut io.Writer) (*PortForwarder, error) {
	return NewOnAddressesWithContext(ctx, streamadapt.DialerFromStreaming(dialer), addresses, ports, readyChan, out, errOut)
}

// ForwardPorts dials the pod, listens on every requested port and forwards
// connections until stopChan is closed (nil error) or the connection to the
// pod is lost (ErrLostConnectionToPod).
func (pf *PortForwarder) ForwardPorts() error {
	defer pf.Close()
	conn, protocol, err := pf.dialer.Dial(PortForwardProtocolV1Name)
	if err != nil {
		return fmt.Errorf("error upgrading connection: %w", err)
	}
	defer conn.Close() //nolint:errcheck
	if protocol != PortForwardProtocolV1Name {
		return fmt.Errorf("unable to negotiate protocol: client supports %q, server returned %q", PortForwardProtocolV1Name, protocol)
	}
	pf.streamConn = conn
	return pf.forward()
}

func (pf *PortForwarder) forward() error {
	listening := false
	for i := range pf.ports {
		if err := pf.listenOnPort(&pf.ports[i]); err != nil {
			pf.logf(pf.errOut, "Unable to listen on port %d: %v\n", pf.ports[i].Local, err)
			continue
		}
		listening = true
	}
	if !listening {
		return errors.New("unable to listen on any of the requested ports")
	}
	if pf.Ready != nil {
		close(pf.Ready)
	}
	select {
	case <-pf.stopChan:
		return nil
	case <-pf.streamConn.CloseChan():
		return ErrLostConnectionToPod
	}
}

// listenOnPort opens a listener for port on every address, filling in the
// chosen local port when it was 0 so all addresses share it.
func (pf *PortForwarder) listenOnPort(port *ForwardedPort) error {
	var errs []error
	// The "any" addresses (localhost) fail as a group: one of them is
	// enough, even when other addresses were opened.
	anyOpened, anyFailed := 0, 0
	for _, addr := range pf.addresses {
		l, err := net.Listen(addr.protocol, net.JoinHostPort(addr.address, strconv.Itoa(int(port.Local))))
		if err != nil {
			if addr.failureMode == "all" {
				return fmt.Errorf("unable to listen on %s:%d: %w", addr.address, port.Local, err)
			}
			errs = append(errs, err)
			anyFailed++
			continue
		}
		if addr.failureMode == "any" {
			anyOpened++
		}
		if port.Local == 0 {
			port.Local = uint16(l.Addr().(*net.TCPAddr).Port)
		}
		if !pf.addListener(l) {
			l.Close() //nolint:errcheck
			return errors.New("port forwarder closed")
		}
		pf.logf(pf.out, "Forwarding from %s -> %d\n", net.JoinHostPort(addr.address, strconv.Itoa(int(port.Local))), port.Remote)
		go pf.acceptLoop(l, *port)
	}
	if anyFailed > 0 && anyOpened == 0 {
		return errors.Join(errs...)
	}
	return nil
}

func (pf *PortForwarder) addListener(l net.Listener) bool {
	pf.listenersMu.Lock()
	defer pf.listenersMu.Unlock()
	if pf.closed {
		return false
	}
	pf.listeners = append(pf.listeners, l)
	return true
}

// acceptLoop hands each accepted connection to its own goroutine; it ends
// when the listener is closed.
func (pf *PortForwarder) acceptLoop(l net.Listener, port ForwardedPort) {
	for {
		conn, err := l.Accept()
		if err != nil {
			return
		}
		go pf.handleConnection(conn, port)
	}
}

// nextRequestID numbers the stream pairs of one forwarder 0, 1, 2, ...
func (pf *PortForwarder) nextRequestID() int {
	return int(pf.requestIDs.Add(1) - 1)
}

// handleConnection opens the error and data streams for one local
// connection and copies bytes both ways until either side finishes.
func (pf *PortForwarder) handleConnection(conn net.Conn, port ForwardedPort) {
	defer conn.Close() //nolint:errcheck
	pf.logf(pf.out, "Handling connection for %d\n", port.Local)

	headers := http.Header{}
	headers.Set(v1.StreamType, v1.StreamTypeError)
	headers.Set(v1.PortHeader, strconv.Itoa(int(port.Remote)))
	headers.Set(v1.PortForwardRequestIDHeader, strconv.Itoa(pf.nextRequestID()))
	errorStream, err := pf.streamConn.CreateStream(headers)
	if err != nil {
		pf.logf(pf.errOut, "error creating error stream for port %d -> %d: %v\n", port.Local, port.Remote, err)
		return
	}
	// The client never writes to the error stream.
	errorStream.Close() //nolint:errcheck
	remoteErr := make(chan error, 1)
	go func() {
		message, err := io.ReadAll(errorStream)
		switch {
		case err != nil:
			remoteErr <- fmt.Errorf("error reading from error stream for port %d -> %d: %w", port.Local, port.Remote, err)
		case len(message) > 0:
			remoteErr <- fmt.Errorf("an error occurred forwarding %d -> %d: %s", port.Local, port.Remote, message)
		default:
			remoteErr <- nil
		}
	}()

	headers.Set(v1.StreamType, v1.StreamTypeData)
	dataStream, err := pf.streamConn.CreateStream(headers)
	if err != nil {
		pf.logf(pf.errOut, "error creating forwarding stream for port %d -> %d: %v\n", port.Local, port.Remote, err)
		return
	}
	defer pf.streamConn.RemoveStreams(errorStream, dataStream)

	remoteDone := make(chan struct{})
	localDone := make(chan struct{})
	go func() {
		defer close(remoteDone)
		io.Copy(conn, dataStream) //nolint:errcheck
	}()
	go func() {
		defer close(localDone)
		io.Copy(dataStream, conn) //nolint:errcheck
		// Half-close: the pod sees EOF while its reply can still arrive.
		dataStream.Close() //nolint:errcheck
	}()

	select {
	case <-remoteDone:
	case <-localDone:
		<-remoteDone
	}
	if err := <-remoteErr; err != nil {
		pf.logf(pf.errOut, "%v\n", err)
	}
}

func (pf *PortForwarder) logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format, args...)
	}
}

// Close stops all listeners; connections already accepted finish on their own.
func (pf *PortForwarder) Close() {
	pf.listenersMu.Lock()
	defer pf.listenersMu.Unlock()
	pf.closed = true
	for _, l := range pf.listeners {
		l.Close() //nolint:errcheck
	}
	pf.listeners = nil
}

// GetPorts returns the forwarded ports, with local ports chosen by the
// system filled in. It fails when there is no Ready channel or it is not
// closed yet.
func (pf *PortForwarder) GetPorts() ([]ForwardedPort, error) {
	if pf.Ready == nil {
		return nil, errors.New("no Ready channel provided")
	}
	select {
	case <-pf.Ready:
		return append([]ForwardedPort(nil), pf.ports...), nil
	default:
		return nil, errors.New("listeners not ready")
	}
}
