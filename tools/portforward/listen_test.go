package portforward

import (
	"io"
	"net"
	"strconv"
	"testing"
)

func canListen(network, address string) bool {
	l, err := net.Listen(network, net.JoinHostPort(address, "0"))
	if err != nil {
		return false
	}
	l.Close() //nolint:errcheck
	return true
}

func TestListenOnPortFailureModes(t *testing.T) {
	if !canListen("tcp6", "::1") || !canListen("tcp4", "127.0.0.2") {
		t.Skip("needs IPv6 loopback and 127.0.0.2")
	}
	tests := []struct {
		name      string
		addresses []string
		// busy are the addresses whose port is taken beforehand.
		busy    []string
		wantErr bool
	}{
		{name: "localhost free", addresses: []string{"localhost"}},
		{name: "one loopback busy is tolerated", addresses: []string{"localhost"}, busy: []string{"127.0.0.1"}},
		{name: "all loopbacks busy", addresses: []string{"localhost"}, busy: []string{"127.0.0.1", "::1"}, wantErr: true},
		{
			name:      "all loopbacks busy despite another address",
			addresses: []string{"localhost", "127.0.0.2"},
			busy:      []string{"127.0.0.1", "::1"},
			wantErr:   true,
		},
		{name: "explicit address busy", addresses: []string{"127.0.0.2", "127.0.0.1"}, busy: []string{"127.0.0.1"}, wantErr: true},
		{name: "explicit address with leading zeros", addresses: []string{"127.000.000.002"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			probe, err := net.Listen("tcp4", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			port := probe.Addr().(*net.TCPAddr).Port
			probe.Close() //nolint:errcheck
			for _, addr := range tc.busy {
				network := "tcp4"
				if net.ParseIP(addr).To4() == nil {
					network = "tcp6"
				}
				l, err := net.Listen(network, net.JoinHostPort(addr, strconv.Itoa(port)))
				if err != nil {
					t.Fatalf("occupying %s: %v", addr, err)
				}
				defer l.Close() //nolint:errcheck
			}
			pf, err := NewOnAddresses(fakeDialer{}, tc.addresses, []string{"0:80"}, make(chan struct{}), nil, io.Discard, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			defer pf.Close()
			err = pf.listenOnPort(&ForwardedPort{Local: uint16(port), Remote: 80})
			if (err != nil) != tc.wantErr {
				t.Errorf("listenOnPort error = %v, wantErr %v", err, tc.wantErr)
			}
		})
	}
}
