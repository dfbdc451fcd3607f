package exec

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"reflect"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/pkg/apis/clientauthentication"
	"github.com/kubeclient/client-go/tools/metrics"
)

// missingPluginHelp follows the "not found" error so users learn what a
// credential plugin is.
const missingPluginHelp = `

It looks like you are trying to use a client-go credential plugin that is not installed.

To learn more about this feature, consult the documentation available at:
      https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins`

// maxStderrInError bounds how much of the plugin's standard error is quoted
// in an error message.
const maxStderrInError = 4 << 10

// runPlugin runs the plugin once under ctx and returns what it printed,
// decoded. It holds no lock while the process runs; a.mu is taken only for
// the plugin policy check, which may remember resolved allowlist paths.
// When ctx ends the process is killed, and so is a plugin that is not
// interactive once it has run for limit (zero: no limit).
func (a *Authenticator) runPlugin(ctx context.Context, limit time.Duration) (*credentials, time.Time, error) {
	interactive, err := a.interactive()
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("exec plugin cannot support interactive mode: %w", err)
	}
	if !interactive && limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, limit, fmt.Errorf("it ran longer than the %v allowed to a plugin that is not interactive", limit))
		defer cancel()
	}

	request := &clientauthentication.ExecCredential{
		Spec: clientauthentication.ExecCredentialSpec{Interactive: interactive},
	}
	if a.provideClusterInfo {
		request.Spec.Cluster = a.cluster
	}
	encoded, err := runtime.Encode(codecs.LegacyCodec(a.group), request)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("encode ExecCredentials: %v", err)
	}

	var stdout bytes.Buffer
	stderr := &prefixBuffer{limit: maxStderrInError}
	cmd := exec.CommandContext(ctx, a.cmd, a.args...)
	// A plugin that started children holding its output open must not keep
	// Wait from returning once the plugin itself was killed.
	cmd.WaitDelay = killedPluginWaitDelay
	cmd.Env = append(append(a.environ(), a.env...), execInfoEnv+"="+string(encoded))
	cmd.Stdout = &stdout
	cmd.Stderr = stderr
	if a.stderr != nil {
		cmd.Stderr = teeWriter{a.stderr, stderr}
	}
	if interactive {
		cmd.Stdin = a.stdin
	}

	a.mu.Lock()
	err = a.checkPolicyLocked(cmd)
	a.mu.Unlock()
	recordPolicyDecision(err)
	if err != nil {
		return nil, time.Time{}, err
	}

	err = cmd.Run()
	recordCall(err)
	if err != nil {
		if ctx.Err() != nil {
			return nil, time.Time{}, fmt.Errorf("exec: executable %s stopped: %w", a.cmd, context.Cause(ctx))
		}
		return nil, time.Time{}, a.runError(err, stderr)
	}
	return a.parseOutput(stdout.Bytes())
}

// storeLocked caches creds and their expiry. Connections authenticated
// with a certificate that creds replace are closed. a.mu must be held.
func (a *Authenticator) storeLocked(creds *credentials, exp time.Time) {
	a.exp = exp
	previous := a.cachedCreds
	a.cachedCreds = creds
	if previous != nil && !reflect.DeepEqual(previous.cert, creds.cert) {
		// Connections made with the old certificate would keep
		// authenticating as it; close them so new ones use the new one.
		if previous.cert != nil && previous.cert.Leaf != nil {
			metrics.ClientCertRotationAge.Observe(time.Since(previous.cert.Leaf.NotBefore))
		}
		a.connTracker.CloseAll()
	}

	var certExpiry time.Time
	if creds.cert != nil && creds.cert.Leaf != nil {
		certExpiry = creds.cert.Leaf.NotAfter
	}
	certExpiries.set(a, certExpiry)
}

// parseOutput decodes and validates what the plugin printed.
func (a *Authenticator) parseOutput(out []byte) (*credentials, time.Time, error) {
	if len(bytes.TrimSpace(out)) == 0 {
		return nil, time.Time{}, fmt.Errorf("exec plugin %s printed nothing on standard output, want an ExecCredential of apiVersion %s", a.cmd, a.group)
	}
	cred := &clientauthentication.ExecCredential{}
	_, gvk, err := codecs.UniversalDecoder(a.group).Decode(out, nil, cred)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("decoding stdout: %v", err)
	}
	if gvk.GroupVersion() != a.group {
		return nil, time.Time{}, fmt.Errorf("exec plugin is configured to use API version %s, plugin returned version %s",
			a.group, schema.GroupVersion{Group: gvk.Group, Version: gvk.Version})
	}
	status := cred.Status
	if status == nil {
		return nil, time.Time{}, errors.New("exec plugin didn't return a status field")
	}
	if status.Token == "" && status.ClientCertificateData == "" && status.ClientKeyData == "" {
		return nil, time.Time{}, errors.New("exec plugin didn't return a token or cert/key pair")
	}
	if (status.ClientCertificateData == "") != (status.ClientKeyData == "") {
		return nil, time.Time{}, errors.New("exec plugin returned only certificate or key, not both")
	}

	var exp time.Time
	if status.ExpirationTimestamp != nil {
		exp = status.ExpirationTimestamp.Time
	}
	creds := &credentials{token: status.Token}
	if status.ClientCertificateData != "" {
		pair, err := tls.X509KeyPair([]byte(status.ClientCertificateData), []byte(status.ClientKeyData))
		if err != nil {
			return nil, time.Time{}, fmt.Errorf("failed parsing client key/certificate: %v", err)
		}
		if pair.Leaf == nil {
			if pair.Leaf, err = x509.ParseCertificate(pair.Certificate[0]); err != nil {
				return nil, time.Time{}, fmt.Errorf("failed parsing client leaf certificate: %v", err)
			}
		}
		creds.cert = &pair
	}
	return creds, exp, nil
}

// runError turns a failed cmd.Run into an error that says what to do about
// it: install the plugin, or read what it printed on standard error.
func (a *Authenticator) runError(err error, stderr *prefixBuffer) error {
	var notFound *exec.Error
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &notFound), errors.Is(err, fs.ErrNotExist):
		var b strings.Builder
		fmt.Fprintf(&b, "exec: executable %s not found", a.cmd)
		b.WriteString(missingPluginHelp)
		if a.installHint != "" {
			fmt.Fprintf(&b, "\n\n%s", a.installHint)
		}
		return errors.New(b.String())
	case errors.As(err, &exitErr):
		msg := fmt.Sprintf("exec: executable %s failed with exit code %d", a.cmd, exitErr.ExitCode())
		if s := stderr.String(); s != "" {
			msg += ": " + s
		}
		return errors.New(msg)
	default:
		return fmt.Errorf("exec: %v", err)
	}
}

// prefixBuffer keeps the first limit bytes written to it and counts the
// rest, so a chatty plugin cannot make an error message unbounded.
type prefixBuffer struct {
	limit   int
	buf     bytes.Buffer
	dropped int
}

func (p *prefixBuffer) Write(b []byte) (int, error) {
	room := p.limit - p.buf.Len()
	if room >= len(b) {
		return p.buf.Write(b)
	}
	if room > 0 {
		p.buf.Write(b[:room])
	}
	p.dropped += len(b) - max(room, 0)
	return len(b), nil
}

// String returns the kept output without surrounding white space, marked
// when something was dropped.
func (p *prefixBuffer) String() string {
	s := strings.TrimSpace(p.buf.String())
	if p.dropped > 0 {
		s += fmt.Sprintf(" ... (%d more bytes)", p.dropped)
	}
	return s
}

// teeWriter copies the plugin's standard error to the user's terminal and
// to the buffer quoted in errors. A failure to write to the terminal must
// not fail the plugin, so only the buffer's result counts.
type teeWriter struct {
	terminal interface{ Write([]byte) (int, error) }
	capture  *prefixBuffer
}

func (t teeWriter) Write(b []byte) (int, error) {
	_, _ = t.terminal.Write(b)
	return t.capture.Write(b)
}
