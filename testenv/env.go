package testenv

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/testenv/binaries"
)

// KeepDirEnv, when set to any value, keeps the working folder Start created
// (data, certificates, logs) after Stop.
const KeepDirEnv = "KUBECLIENT_KEEP_CONTROLPLANE_DIR"

// Env is a running control plane. Its exported fields are set by Start and
// read-only afterwards.
//
// Each server is a child process in its own process group whose output
// goes to <Dir>/<name>.log. Stop ends them; on Linux the kernel also kills
// them if the test binary dies first.
type Env struct {
	// Config is an admin client configuration (user AdminUser, group
	// system:masters). Callers get a copy from AdminConfig.
	Config *rest.Config
	// Host is the kube-apiserver URL, https://127.0.0.1:<port>.
	Host string
	// CAFile verifies kube-apiserver's serving certificate.
	CAFile string
	// KubeconfigPath is an admin kubeconfig for Host.
	KubeconfigPath string
	// Dir is the working folder.
	Dir string
	// EtcdURL is etcd's client URL.
	EtcdURL string
	// AuditLogPath is kube-apiserver's audit log, when Options.AuditLog.
	AuditLogPath string

	opts      Options
	removeDir bool
	tokens    map[string]string // user name -> bearer token
	pki       pkiFiles
	stopOnce  sync.Once

	etcd *process
	kcm  *process // nil when the controller manager is disabled

	// mu guards apiserver, which StartAPIServer replaces.
	mu            sync.Mutex
	apiserver     *process
	apiserverBin  string
	apiserverArgs []string
}

// Start builds or finds the binaries, then starts etcd, kube-apiserver and
// (unless disabled) kube-controller-manager on free loopback ports, and
// returns once each is ready. If a port it picked was taken by someone else
// in the meantime, it starts over with new ports (at most three times).
// The caller must call Stop.
func Start(ctx context.Context, opts Options) (*Env, error) {
	if opts.StartTimeout == 0 {
		opts.StartTimeout = 2 * time.Minute
	}
	paths, err := findBinaries(ctx, opts)
	if err != nil {
		return nil, err
	}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		env, err := startOnce(ctx, opts, paths)
		if err == nil {
			return env, nil
		}
		lastErr = err
		if !errors.Is(err, errPortTaken) {
			break
		}
	}
	return nil, lastErr
}

var errPortTaken = errors.New("a port picked for the control plane was taken")

func findBinaries(ctx context.Context, opts Options) (binaries.Paths, error) {
	names := []string{binaries.Etcd, binaries.KubeAPIServer}
	if !opts.DisableControllerManager {
		names = append(names, binaries.KubeControllerManager)
	}
	if opts.BinariesDir != "" {
		paths := binaries.Paths{}
		for _, name := range names {
			p := filepath.Join(opts.BinariesDir, name)
			if info, err := os.Stat(p); err != nil || info.IsDir() {
				return nil, fmt.Errorf("testenv: Options.BinariesDir %s holds no %s", opts.BinariesDir, name)
			}
			paths[name] = p
		}
		return paths, nil
	}
	log := opts.BuildLog
	if log == nil {
		log = os.Stderr
	}
	return binaries.Find(ctx, log, names...)
}

func startOnce(ctx context.Context, opts Options, paths binaries.Paths) (_ *Env, err error) {
	env := &Env{opts: opts, Dir: opts.Dir}
	if env.Dir == "" {
		dir, err := os.MkdirTemp("", "testenv-")
		if err != nil {
			return nil, err
		}
		env.Dir, env.removeDir = dir, true
	} else if err := os.MkdirAll(env.Dir, 0o700); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			env.Stop()
		}
	}()

	ports, err := freePorts(4)
	if err != nil {
		return nil, err
	}
	env.EtcdURL = "http://127.0.0.1:" + strconv.Itoa(ports[0])
	peerURL := "http://127.0.0.1:" + strconv.Itoa(ports[1])
	env.Host = "https://127.0.0.1:" + strconv.Itoa(ports[2])
	kcmPort := ports[3]

	if env.pki, err = writePKI(env.Dir); err != nil {
		return nil, fmt.Errorf("testenv: generating certificates: %w", err)
	}
	env.CAFile = env.pki.CAFile
	tokenFile, err := env.writeTokens(opts.Users)
	if err != nil {
		return nil, err
	}

	env.etcd, err = startProcess(binaries.Etcd, paths[binaries.Etcd],
		etcdArgs(env.EtcdURL, peerURL, filepath.Join(env.Dir, "etcd-data")), env.logPath(binaries.Etcd))
	if err != nil {
		return nil, err
	}

	env.apiserverBin = paths[binaries.KubeAPIServer]
	if env.apiserverArgs, err = env.apiServerArgs(ports[2], tokenFile); err != nil {
		return nil, err
	}
	if err := env.StartAPIServer(ctx); err != nil {
		return nil, err
	}

	env.Config = env.TokenConfig(AdminToken)
	env.KubeconfigPath = filepath.Join(env.Dir, "admin.kubeconfig")
	if err := writeKubeconfig(env.KubeconfigPath, env.Host, env.CAFile, AdminUser, AdminToken); err != nil {
		return nil, err
	}

	if !opts.DisableControllerManager {
		if err := env.startControllerManager(ctx, paths[binaries.KubeControllerManager], kcmPort); err != nil {
			return nil, err
		}
	}
	return env, nil
}

func (env *Env) logPath(name string) string { return filepath.Join(env.Dir, name+".log") }

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

// Stop stops kube-controller-manager, kube-apiserver and etcd, in that
// order, and removes the working folder when Start created it. It is safe
// to call more than once and from several goroutines.
func (env *Env) Stop() {
	env.stopOnce.Do(func() {
		if env.kcm != nil {
			env.kcm.stop(5 * time.Second)
		}
		if p := env.apiServerProcess(); p != nil {
			p.stop(10 * time.Second)
		}
		if env.etcd != nil {
			env.etcd.stop(5 * time.Second)
		}
		if env.removeDir && os.Getenv(KeepDirEnv) == "" {
			os.RemoveAll(env.Dir)
		}
	})
}

// LogTail returns the last n lines of every server's log.
func (env *Env) LogTail(n int) string {
	var b strings.Builder
	for _, p := range env.processes() {
		fmt.Fprintf(&b, "----- last %d lines of %s (%s) -----\n%s\n", n, p.name, p.logPath, p.logTail(n))
	}
	return b.String()
}

// processes returns the servers started so far.
func (env *Env) processes() []*process {
	var ps []*process
	for _, p := range []*process{env.etcd, env.apiServerProcess(), env.kcm} {
		if p != nil {
			ps = append(ps, p)
		}
	}
	return ps
}

// exitedError reports a server that ended, with its last log lines; when
// the log says a port was taken, the error wraps errPortTaken.
func (env *Env) exitedError() error {
	for _, p := range env.processes() {
		if !p.exited() {
			continue
		}
		logTail := p.logTail(30)
		err := fmt.Errorf("testenv: %s exited (%v); last log lines:\n%s", p.name, p.err, logTail)
		if strings.Contains(logTail, "address already in use") {
			return fmt.Errorf("%w: %w", errPortTaken, err)
		}
		return err
	}
	return nil
}
