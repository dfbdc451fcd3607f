package framework

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kubeclient/client-go/rest"
)

// Identities in the static token file.
const (
	// AdminUser belongs to system:masters and may do anything.
	AdminUser = "admin"
	// AdminToken authenticates AdminUser.
	AdminToken = "integration-admin-token"
	// PlainUser has no role bindings; RBAC forbids it everything that
	// system:authenticated is not granted.
	PlainUser = "jane"
	// PlainToken authenticates PlainUser.
	PlainToken = "integration-jane-token"
)

// ServiceAccountIssuer is the issuer kube-apiserver puts in the service
// account tokens it signs.
const ServiceAccountIssuer = "https://kubernetes.default.svc.cluster.local"

// Options tunes a control plane.
type Options struct {
	// BinariesDir holds etcd and kube-apiserver; empty means BinariesDir().
	BinariesDir string
	// Dir is the working folder for data, certificates and logs; empty
	// means a new temporary folder that Stop removes.
	Dir string
	// ExtraAPIServerArgs are appended to the kube-apiserver command line.
	ExtraAPIServerArgs []string
	// ReadyTimeout bounds the wait for /readyz; zero means two minutes.
	ReadyTimeout time.Duration
}

// ControlPlane is a running etcd and kube-apiserver pair.
type ControlPlane struct {
	// Host is the kube-apiserver URL, https://127.0.0.1:<port>.
	Host string
	// CAFile verifies the serving certificate.
	CAFile string
	// KubeconfigPath is an admin kubeconfig for Host.
	KubeconfigPath string
	// Dir is the working folder.
	Dir string
	// EtcdURL is etcd's client URL.
	EtcdURL string

	removeDir bool
	etcd      *process
	stopOnce  sync.Once

	// mu guards apiserver, which RestartAPIServer replaces.
	mu            sync.Mutex
	apiserver     *process
	apiserverBin  string
	apiserverArgs []string
	apiserverLog  string
	readyTimeout  time.Duration
}

// Start launches etcd and kube-apiserver and returns once /readyz answers
// ok. If a port picked for a server was taken by someone else in the
// meantime, it starts over with new ports (at most three times).
func Start(ctx context.Context, opts Options) (*ControlPlane, error) {
	if opts.BinariesDir == "" {
		dir, err := BinariesDir()
		if err != nil {
			return nil, err
		}
		opts.BinariesDir = dir
	}
	if opts.ReadyTimeout == 0 {
		opts.ReadyTimeout = 2 * time.Minute
	}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		cp, err := startOnce(ctx, opts)
		if err == nil {
			return cp, nil
		}
		lastErr = err
		if !errors.Is(err, errPortTaken) {
			break
		}
	}
	return nil, lastErr
}

var errPortTaken = errors.New("a port picked for the control plane was taken")

func startOnce(ctx context.Context, opts Options) (_ *ControlPlane, err error) {
	cp := &ControlPlane{Dir: opts.Dir, readyTimeout: opts.ReadyTimeout}
	if cp.Dir == "" {
		dir, err := os.MkdirTemp("", "kubeclient-integration-")
		if err != nil {
			return nil, err
		}
		cp.Dir, cp.removeDir = dir, true
	} else if err := os.MkdirAll(cp.Dir, 0o700); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			cp.Stop()
		}
	}()

	ports, err := freePorts(3)
	if err != nil {
		return nil, err
	}
	etcdClient, etcdPeer, securePort := ports[0], ports[1], ports[2]
	cp.EtcdURL = "http://127.0.0.1:" + strconv.Itoa(etcdClient)
	cp.Host = "https://127.0.0.1:" + strconv.Itoa(securePort)
	peerURL := "http://127.0.0.1:" + strconv.Itoa(etcdPeer)

	pki, err := writePKI(cp.Dir)
	if err != nil {
		return nil, fmt.Errorf("generating certificates: %w", err)
	}
	cp.CAFile = pki.CAFile
	tokenFile := filepath.Join(cp.Dir, "tokens.csv")
	tokens := fmt.Sprintf("%s,%s,%s-uid,\"system:masters\"\n%s,%s,%s-uid\n",
		AdminToken, AdminUser, AdminUser, PlainToken, PlainUser, PlainUser)
	if err := os.WriteFile(tokenFile, []byte(tokens), 0o600); err != nil {
		return nil, err
	}

	cp.etcd, err = startProcess("etcd", filepath.Join(opts.BinariesDir, "etcd"), []string{
		"--name=integration",
		"--data-dir=" + filepath.Join(cp.Dir, "etcd-data"),
		"--listen-client-urls=" + cp.EtcdURL,
		"--advertise-client-urls=" + cp.EtcdURL,
		"--listen-peer-urls=" + peerURL,
		"--initial-advertise-peer-urls=" + peerURL,
		"--initial-cluster=integration=" + peerURL,
		"--unsafe-no-fsync",
		"--log-level=warn",
	}, filepath.Join(cp.Dir, "etcd.log"))
	if err != nil {
		return nil, err
	}

	args := []string{
		"--etcd-servers=" + cp.EtcdURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(securePort),
		"--cert-dir=" + filepath.Join(cp.Dir, "apiserver-certs"),
		"--tls-cert-file=" + pki.ServingCertFile,
		"--tls-private-key-file=" + pki.ServingKeyFile,
		"--service-account-key-file=" + pki.SAPubFile,
		"--service-account-signing-key-file=" + pki.SAKeyFile,
		"--service-account-issuer=" + ServiceAccountIssuer,
		"--service-cluster-ip-range=10.0.0.0/24",
		"--authorization-mode=RBAC",
		"--token-auth-file=" + tokenFile,
		"--disable-admission-plugins=ServiceAccount",
		"--endpoint-reconciler-type=none",
	}
	cp.apiserverArgs = append(args, opts.ExtraAPIServerArgs...)
	cp.apiserverBin = filepath.Join(opts.BinariesDir, "kube-apiserver")
	cp.apiserverLog = filepath.Join(cp.Dir, "kube-apiserver.log")
	cp.apiserver, err = startProcess("kube-apiserver", cp.apiserverBin, cp.apiserverArgs, cp.apiserverLog)
	if err != nil {
		return nil, err
	}

	if err := cp.waitReady(ctx, opts.ReadyTimeout); err != nil {
		return nil, err
	}
	cp.KubeconfigPath = filepath.Join(cp.Dir, "admin.kubeconfig")
	if err := writeKubeconfig(cp.KubeconfigPath, cp.Host, cp.CAFile, AdminUser, AdminToken); err != nil {
		return nil, err
	}
	return cp, nil
}

// waitReady polls /readyz until it answers 200, a server exits, or the
// timeout passes.
func (cp *ControlPlane) waitReady(ctx context.Context, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	client, err := probeClient(cp.CAFile)
	if err != nil {
		return err
	}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	lastStatus := "no answer yet"
	for {
		for _, p := range cp.processes() {
			if p.exited() {
				logTail := p.logTail(30)
				err := fmt.Errorf("%s exited while starting (%v); last log lines:\n%s", p.name, p.err, logTail)
				if strings.Contains(logTail, "address already in use") {
					return fmt.Errorf("%w: %v", errPortTaken, err)
				}
				return err
			}
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, cp.Host+"/readyz", nil)
		req.Header.Set("Authorization", "Bearer "+AdminToken)
		if resp, err := client.Do(req); err != nil {
			lastStatus = err.Error()
		} else {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			lastStatus = resp.Status
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("kube-apiserver not ready after %v (last /readyz: %s); last log lines:\n%s",
				timeout, lastStatus, cp.apiServerProcess().logTail(30))
		case <-tick.C:
		}
	}
}

func probeClient(caFile string) (*http.Client, error) {
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%s holds no certificate", caFile)
	}
	return &http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
	}, nil
}

// freePorts returns n distinct loopback ports that were free a moment ago.
func freePorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// Stop stops kube-apiserver, then etcd, and removes the working folder when
// Start created it. It is safe to call more than once and from several
// goroutines.
func (cp *ControlPlane) Stop() {
	cp.stopOnce.Do(func() {
		if p := cp.apiServerProcess(); p != nil {
			p.stop(10 * time.Second)
		}
		if cp.etcd != nil {
			cp.etcd.stop(5 * time.Second)
		}
		if cp.removeDir && os.Getenv("KUBECLIENT_KEEP_CONTROLPLANE_DIR") == "" {
			os.RemoveAll(cp.Dir)
		}
	})
}

// LogTail returns the last n lines of both servers' logs.
func (cp *ControlPlane) LogTail(n int) string {
	var b strings.Builder
	for _, p := range []*process{cp.apiServerProcess(), cp.etcd} {
		if p == nil {
			continue
		}
		fmt.Fprintf(&b, "----- last %d lines of %s (%s) -----\n%s\n", n, p.name, p.logPath, p.logTail(n))
	}
	return b.String()
}

// AdminConfig returns a client configuration for AdminUser. QPS and Burst
// are raised so that tests are not slowed by client-side throttling.
func (cp *ControlPlane) AdminConfig() *rest.Config {
	return cp.TokenConfig(AdminToken)
}

// PlainUserConfig returns a client configuration for PlainUser.
func (cp *ControlPlane) PlainUserConfig() *rest.Config {
	return cp.TokenConfig(PlainToken)
}

// AnonymousConfig returns a configuration that trusts the server but sends
// no credentials.
func (cp *ControlPlane) AnonymousConfig() *rest.Config {
	return &rest.Config{
		Host:            cp.Host,
		TLSClientConfig: rest.TLSClientConfig{CAFile: cp.CAFile},
		QPS:             200,
		Burst:           400,
	}
}

// TokenConfig returns a configuration that sends token as a bearer token.
func (cp *ControlPlane) TokenConfig(token string) *rest.Config {
	cfg := cp.AnonymousConfig()
	cfg.BearerToken = token
	return cfg
}

// apiServerProcess returns the kube-apiserver process running now.
func (cp *ControlPlane) apiServerProcess() *process {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	return cp.apiserver
}

// processes returns etcd and the current kube-apiserver.
func (cp *ControlPlane) processes() []*process {
	return []*process{cp.etcd, cp.apiServerProcess()}
}

// StopAPIServer stops kube-apiserver (SIGTERM, then SIGKILL after ten
// seconds) and leaves etcd running; clients see connection refused until
// StartAPIServer. Watches open at that moment end.
func (cp *ControlPlane) StopAPIServer() {
	if p := cp.apiServerProcess(); p != nil {
		p.stop(10 * time.Second)
	}
}

// StartAPIServer starts kube-apiserver again on the same port, with the same
// flags and data, after StopAPIServer, and waits for /readyz.
func (cp *ControlPlane) StartAPIServer(ctx context.Context) error {
	if p := cp.apiServerProcess(); p != nil && !p.exited() {
		return errors.New("kube-apiserver is still running")
	}
	p, err := startProcess("kube-apiserver", cp.apiserverBin, cp.apiserverArgs, cp.apiserverLog)
	if err != nil {
		return err
	}
	cp.mu.Lock()
	cp.apiserver = p
	cp.mu.Unlock()
	return cp.waitReady(ctx, cp.readyTimeout)
}

// RestartAPIServer stops kube-apiserver and starts it again on the same
// port; see StopAPIServer and StartAPIServer.
func (cp *ControlPlane) RestartAPIServer(ctx context.Context) error {
	cp.StopAPIServer()
	return cp.StartAPIServer(ctx)
}
