package testenv

import (
	"context"
	"crypto/tls"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/kubeclient/client-go/testenv/binaries"
)

// startControllerManager starts kube-controller-manager with the admin
// kubeconfig and waits until its /healthz answers ok. It signs service
// account tokens with kube-apiserver's key and publishes the CA, has no
// cloud provider and no leader election, and serves /healthz on port
// (loopback) with a self-signed certificate.
func (env *Env) startControllerManager(ctx context.Context, bin string, port int) error {
	controllers := env.opts.Controllers
	if controllers == nil {
		controllers = DefaultControllers
	}
	args := []string{
		"--kubeconfig=" + env.KubeconfigPath,
		"--controllers=" + strings.Join(controllers, ","),
		"--leader-elect=false",
		"--bind-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(port),
		"--cert-dir=" + filepath.Join(env.Dir, "controller-manager-certs"),
		"--service-account-private-key-file=" + env.pki.SAKeyFile,
		"--root-ca-file=" + env.pki.CAFile,
		"--use-service-account-credentials=false",
		// Controllers start at once instead of staggered over seconds.
		"--controller-start-interval=0s",
	}
	if gates := featureGatesFlag(env.opts.FeatureGates); gates != "" {
		args = append(args, gates)
	}
	args = append(args, env.opts.ControllerManagerArgs...)
	p, err := startProcess(binaries.KubeControllerManager, bin, args, env.logPath(binaries.KubeControllerManager))
	if err != nil {
		return err
	}
	env.kcm = p
	// The serving certificate is self-signed and only /healthz is read.
	client := &http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}},
	}
	return env.waitHealthy(ctx, client, "https://127.0.0.1:"+strconv.Itoa(port)+"/healthz", "", p)
}
