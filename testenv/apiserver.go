package testenv

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/kubeclient/client-go/testenv/binaries"
)

// ServiceAccountIssuer is the issuer kube-apiserver puts in the service
// account tokens it signs.
const ServiceAccountIssuer = "https://kubernetes.default.svc.cluster.local"

// apiServerArgs is kube-apiserver's command line: loopback only, the
// generated certificates, the static token file, RBAC, no endpoint
// reconciler (the loopback address is not routable from a pod network, and
// no pod runs), then the options' feature gates, audit log and extra
// flags.
func (env *Env) apiServerArgs(port int, tokenFile string) ([]string, error) {
	args := []string{
		"--etcd-servers=" + env.EtcdURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(port),
		"--cert-dir=" + filepath.Join(env.Dir, "apiserver-certs"),
		"--tls-cert-file=" + env.pki.ServingCertFile,
		"--tls-private-key-file=" + env.pki.ServingKeyFile,
		"--client-ca-file=" + env.pki.CAFile,
		"--service-account-key-file=" + env.pki.SAPubFile,
		"--service-account-signing-key-file=" + env.pki.SAKeyFile,
		"--service-account-issuer=" + ServiceAccountIssuer,
		"--service-cluster-ip-range=10.0.0.0/24",
		"--authorization-mode=RBAC",
		"--token-auth-file=" + tokenFile,
		"--endpoint-reconciler-type=none",
		// The ServiceAccount admission plugin rejects a pod created before
		// the serviceaccount controller made the namespace's "default"
		// account; with no kubelet to mount a token, it only adds flakes.
		"--disable-admission-plugins=ServiceAccount",
	}
	if gates := featureGatesFlag(env.opts.FeatureGates); gates != "" {
		args = append(args, gates)
	}
	if env.opts.AuditLog {
		policy := filepath.Join(env.Dir, "audit-policy.yaml")
		const metadataEverything = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n"
		if err := os.WriteFile(policy, []byte(metadataEverything), 0o600); err != nil {
			return nil, err
		}
		env.AuditLogPath = filepath.Join(env.Dir, "audit.log")
		args = append(args, "--audit-policy-file="+policy, "--audit-log-path="+env.AuditLogPath, "--audit-log-format=json")
	}
	return append(args, env.opts.APIServerArgs...), nil
}

// featureGatesFlag renders gates as a --feature-gates flag in a stable
// order; it returns "" for no gates.
func featureGatesFlag(gates map[string]bool) string {
	if len(gates) == 0 {
		return ""
	}
	pairs := make([]string, 0, len(gates))
	for name, on := range gates {
		pairs = append(pairs, name+"="+strconv.FormatBool(on))
	}
	sort.Strings(pairs)
	return "--feature-gates=" + strings.Join(pairs, ",")
}

// apiServerProcess returns the kube-apiserver process running now.
func (env *Env) apiServerProcess() *process {
	env.mu.Lock()
	defer env.mu.Unlock()
	return env.apiserver
}

// StopAPIServer stops kube-apiserver (SIGTERM, then SIGKILL after ten
// seconds) and leaves etcd and kube-controller-manager running; clients see
// connection refused until StartAPIServer. Watches open at that moment end.
func (env *Env) StopAPIServer() {
	if p := env.apiServerProcess(); p != nil {
		p.stop(10 * time.Second)
	}
}

// StartAPIServer starts kube-apiserver on its port, with the same flags
// and data, when it is not running (after StopAPIServer), and waits until
// /readyz answers ok.
func (env *Env) StartAPIServer(ctx context.Context) error {
	if p := env.apiServerProcess(); p != nil && !p.exited() {
		return errors.New("testenv: kube-apiserver is still running")
	}
	p, err := startProcess(binaries.KubeAPIServer, env.apiserverBin, env.apiserverArgs, env.logPath(binaries.KubeAPIServer))
	if err != nil {
		return err
	}
	env.mu.Lock()
	env.apiserver = p
	env.mu.Unlock()
	client, err := caClient(env.CAFile)
	if err != nil {
		return err
	}
	return env.waitHealthy(ctx, client, env.Host+"/readyz", AdminToken, p)
}

// RestartAPIServer stops kube-apiserver and starts it again on the same
// port; see StopAPIServer and StartAPIServer.
func (env *Env) RestartAPIServer(ctx context.Context) error {
	env.StopAPIServer()
	return env.StartAPIServer(ctx)
}

// waitHealthy polls url (with token, when not empty) until it answers 200,
// a server exits, or Options.StartTimeout passes.
func (env *Env) waitHealthy(ctx context.Context, client *http.Client, url, token string, p *process) error {
	ctx, cancel := context.WithTimeout(ctx, env.opts.StartTimeout)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	lastStatus := "no answer yet"
	for {
		if err := env.exitedError(); err != nil {
			return err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
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
			return fmt.Errorf("testenv: %s not ready after %v (last %s: %s); last log lines:\n%s",
				p.name, env.opts.StartTimeout, url, lastStatus, p.logTail(30))
		case <-tick.C:
		}
	}
}

// caClient returns an HTTP client that trusts the certificates in caFile.
func caClient(caFile string) (*http.Client, error) {
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("testenv: %s holds no certificate", caFile)
	}
	return &http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
	}, nil
}
