package cli

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kubeclient/client-go/bench/internal/fixture"
	"github.com/kubeclient/client-go/bench/internal/harness"
	"github.com/kubeclient/client-go/bench/internal/server"
)

// runServer is the child process: it encodes, listens, prints
// "READY <url>" and serves until its standard input closes (the parent
// ended).
func runServer(p harness.Params) error {
	res, err := fixture.ByNameIn(p.Resource, p.Fixture)
	if err != nil {
		return err
	}
	w := harness.Workloads[p.Workload]
	if w == nil {
		return fmt.Errorf("unknown workload %q", p.Workload)
	}
	srv, err := server.New(server.Config{
		Resource: res, N: p.N, Events: p.Events,
		Protobuf: p.Format == "protobuf", Metadata: w.Metadata,
		WatchList: w.WatchList, Relist: w.Relist,
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	go func() { _ = http.Serve(ln, srv) }()
	fmt.Printf("READY http://%s\n", ln.Addr())
	_, _ = io.Copy(io.Discard, os.Stdin)
	return nil
}

type child struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	host  string
}

// startServer starts the fake server as a child process and waits until it
// is ready.
func startServer(p harness.Params) (*child, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "-serve", "-workload", p.Workload, "-format", p.Format, "-resource", p.Resource, "-fixture", string(p.Fixture),
		"-n", strconv.Itoa(p.N), "-events", strconv.Itoa(p.Events))
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	ready := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		ready <- strings.TrimSpace(line)
	}()
	c := &child{cmd: cmd, stdin: stdin}
	select {
	case line := <-ready:
		host, ok := strings.CutPrefix(line, "READY ")
		if !ok {
			c.stop()
			return nil, fmt.Errorf("fake server did not start (said %q)", line)
		}
		c.host = host
		return c, nil
	case <-time.After(5 * time.Minute):
		c.stop()
		return nil, fmt.Errorf("fake server not ready after 5 minutes")
	}
}

func (c *child) stop() {
	_ = c.stdin.Close()
	done := make(chan struct{})
	go func() { _ = c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = c.cmd.Process.Kill()
		<-done
	}
}
