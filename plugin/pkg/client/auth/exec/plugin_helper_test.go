package exec

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The test binary doubles as the credential plugin: when pluginModeEnv is
// set, TestMain behaves like a plugin instead of running tests, so every
// test below runs a real subprocess.
const pluginModeEnv = "EXEC_TEST_PLUGIN_MODE"

func TestMain(m *testing.M) {
	if mode := os.Getenv(pluginModeEnv); mode != "" {
		os.Exit(runFakePlugin(mode))
	}
	os.Exit(m.Run())
}

// runFakePlugin implements the plugin side. Settings arrive in environment
// variables (the kubeconfig's env list):
//
//	PLUGIN_COUNTER  file holding the number of runs so far; run n replies
//	                with token-n or cert-n
//	PLUGIN_INFO_OUT file receiving KUBERNETES_EXEC_INFO
//	PLUGIN_EXPIRY   comma-separated RFC 3339 expirationTimestamps, one per
//	                run (the last one repeats)
//	PLUGIN_VERSION  apiVersion to reply with (default: the request's)
//	PLUGIN_CERTS    directory with cert-n.pem / key-n.pem
//	PLUGIN_PID_OUT  file receiving the plugin's process id
//	PLUGIN_RELEASE  file whose appearance lets the plugin answer (any mode;
//	                "wait" is "token" that requires it)
//	PLUGIN_STARTS   file to which every run appends a line as it starts
func runFakePlugin(mode string) int {
	if starts := os.Getenv("PLUGIN_STARTS"); starts != "" {
		f, err := os.OpenFile(starts, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err == nil {
			_, err = f.WriteString("started\n")
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	if out := os.Getenv("PLUGIN_PID_OUT"); out != "" {
		if err := os.WriteFile(out+".tmp", []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		// Renamed into place so a reader never sees a partial id.
		if err := os.Rename(out+".tmp", out); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	switch mode {
	case "hang":
		// A plugin that never exits.
		for {
			time.Sleep(time.Hour)
		}
	case "slow":
		// A plugin that answers, but only after half a minute.
		time.Sleep(30 * time.Second)
		mode = "token"
	case "wait":
		mode = "token"
	}
	if release := os.Getenv("PLUGIN_RELEASE"); release != "" {
		// Answers once the release file exists.
		for {
			if _, err := os.Stat(release); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	n := 1
	if counter := os.Getenv("PLUGIN_COUNTER"); counter != "" {
		if b, err := os.ReadFile(counter); err == nil {
			prev, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			n = prev + 1
		}
		if err := os.WriteFile(counter, []byte(strconv.Itoa(n)), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	info := os.Getenv("KUBERNETES_EXEC_INFO")
	if out := os.Getenv("PLUGIN_INFO_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(info), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	var request struct {
		APIVersion string `json:"apiVersion"`
	}
	if err := json.Unmarshal([]byte(info), &request); err != nil {
		fmt.Fprintf(os.Stderr, "bad KUBERNETES_EXEC_INFO %q: %v\n", info, err)
		return 2
	}
	version := request.APIVersion
	if v := os.Getenv("PLUGIN_VERSION"); v != "" {
		version = v
	}

	status := map[string]any{}
	if exp := os.Getenv("PLUGIN_EXPIRY"); exp != "" {
		// One timestamp per run; the last one repeats.
		list := strings.Split(exp, ",")
		status["expirationTimestamp"] = list[min(n, len(list))-1]
	}
	reply := map[string]any{"apiVersion": version, "kind": "ExecCredential", "status": status}

	switch mode {
	case "token":
		status["token"] = fmt.Sprintf("token-%d", n)
	case "args":
		status["token"] = strings.Join(os.Args[1:], ",") + "|" + os.Getenv("PLUGIN_EXTRA")
	case "cert", "certonly":
		dir := os.Getenv("PLUGIN_CERTS")
		cert, err1 := os.ReadFile(filepath.Join(dir, fmt.Sprintf("cert-%d.pem", n)))
		key, err2 := os.ReadFile(filepath.Join(dir, fmt.Sprintf("key-%d.pem", n)))
		if err1 != nil || err2 != nil {
			fmt.Fprintln(os.Stderr, "no certificate for run", n)
			return 2
		}
		status["clientCertificateData"] = string(cert)
		if mode == "cert" {
			status["clientKeyData"] = string(key)
		}
	case "stdin":
		line, _ := bufio.NewReader(os.Stdin).ReadString('\n')
		status["token"] = "stdin:" + strings.TrimSpace(line)
	case "fail":
		fmt.Fprintln(os.Stderr, "error: you must log in first")
		return 3
	case "garbage":
		fmt.Println("this is not an ExecCredential")
		return 0
	case "empty":
		return 0
	case "nostatus":
		delete(reply, "status")
	case "emptystatus":
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", mode)
		return 2
	}
	if err := json.NewEncoder(os.Stdout).Encode(reply); err != nil {
		return 2
	}
	return 0
}

// testPKI is a CA and the client certificates the fake plugin hands out.
type testPKI struct {
	caPEM []byte
	dir   string // cert-n.pem, key-n.pem
}

// newTestPKI writes count client certificates, CN client-1 ... client-count,
// signed by a fresh CA.
func newTestPKI(t *testing.T, count int) *testPKI {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "test-ca"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	p := &testPKI{caPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), dir: t.TempDir()}
	for i := 1; i <= count; i++ {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(int64(i + 1)),
			Subject:      pkix.Name{CommonName: fmt.Sprintf("client-%d", i)},
			NotBefore:    now.Add(-time.Hour),
			NotAfter:     now.Add(time.Duration(i) * time.Hour),
			KeyUsage:     x509.KeyUsageDigitalSignature,
			ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		keyDER, err := x509.MarshalECPrivateKey(key)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(p.dir, fmt.Sprintf("cert-%d.pem", i)), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
		writeFile(t, filepath.Join(p.dir, fmt.Sprintf("key-%d.pem", i)), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}))
	}
	return p
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func readCounter(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(string(b))
	if err != nil {
		t.Fatal(err)
	}
	return n
}
