package csr

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"strings"
	"testing"
	"time"

	certificatesv1 "k8s.io/api/certificates/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/kubernetes/fake"
	clienttesting "github.com/kubeclient/client-go/testing"
	"github.com/kubeclient/client-go/util/cert"
)

func newKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func makeCSR(t *testing.T, key *ecdsa.PrivateKey, cn string) []byte {
	t.Helper()
	data, err := cert.MakeCSR(key, &pkix.Name{CommonName: cn, Organization: []string{"system:nodes"}}, []string{"node.local"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// signer approves (or denies) every request it sees, issuing a certificate
// signed by a throwaway CA, the way kube-controller-manager would.
func signer(t *testing.T, ctx context.Context, client *fake.Clientset, deny bool) {
	t.Helper()
	caKey := newKey(t)
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test-ca"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	csrs := client.CertificatesV1().CertificateSigningRequests()
	w, err := csrs.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		defer w.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.ResultChan():
				if !ok {
					return
				}
				if ev.Type != watch.Added {
					continue
				}
				req := ev.Object.(*certificatesv1.CertificateSigningRequest).DeepCopy()
				if deny {
					req.Status.Conditions = []certificatesv1.CertificateSigningRequestCondition{{
						Type: certificatesv1.CertificateDenied, Status: corev1.ConditionTrue, Reason: "NotAllowed", Message: "go away",
					}}
				} else {
					block, _ := pem.Decode(req.Spec.Request)
					parsed, err := x509.ParseCertificateRequest(block.Bytes)
					if err != nil {
						t.Error(err)
						return
					}
					leafTmpl := &x509.Certificate{
						SerialNumber: big.NewInt(2), Subject: parsed.Subject, DNSNames: parsed.DNSNames,
						NotBefore: time.Now().Add(-time.Minute), NotAfter: time.Now().Add(time.Hour),
						ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
					}
					der, err := x509.CreateCertificate(rand.Reader, leafTmpl, ca, parsed.PublicKey, caKey)
					if err != nil {
						t.Error(err)
						return
					}
					req.Status.Conditions = []certificatesv1.CertificateSigningRequestCondition{{
						Type: certificatesv1.CertificateApproved, Status: corev1.ConditionTrue, Reason: "AutoApproved",
					}}
					req.Status.Certificate = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
				}
				if _, err := csrs.UpdateStatus(ctx, req, metav1.UpdateOptions{}); err != nil {
					t.Error(err)
				}
			}
		}
	}()
}

func TestRequestAndWaitForCertificate(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := fake.NewClientset()
	// The fake stores objects as given, like client-go's; play the API
	// server's part of resolving generateName and assigning a uid.
	client.PrependReactor("create", "certificatesigningrequests", func(action clienttesting.Action) (bool, runtime.Object, error) {
		req := action.(clienttesting.CreateAction).GetObject().(*certificatesv1.CertificateSigningRequest)
		if req.Name == "" {
			req.Name = req.GenerateName + "x7k2q"
		}
		req.UID = "uid-" + types.UID(req.Name)
		return false, nil, nil
	})
	signer(t, ctx, client, false)

	key := newKey(t)
	lifetime := 90 * time.Minute
	usages := []certificatesv1.KeyUsage{certificatesv1.UsageDigitalSignature, certificatesv1.UsageClientAuth}
	name, uid, err := RequestCertificateWithContext(ctx, client, makeCSR(t, key, "system:node:n1"), "", certificatesv1.KubeAPIServerClientKubeletSignerName, &lifetime, usages, key)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(name, "csr-") {
		t.Errorf("generated name %q lacks the csr- prefix", name)
	}
	stored, err := client.CertificatesV1().CertificateSigningRequests().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if stored.Spec.ExpirationSeconds == nil || *stored.Spec.ExpirationSeconds != 5400 || stored.Spec.SignerName != certificatesv1.KubeAPIServerClientKubeletSignerName {
		t.Errorf("unexpected spec %+v", stored.Spec)
	}

	certPEM, err := WaitForCertificate(ctx, client, name, uid)
	if err != nil {
		t.Fatal(err)
	}
	certs, err := cert.ParseCertsPEM(certPEM)
	if err != nil || certs[0].Subject.CommonName != "system:node:n1" {
		t.Fatalf("issued certificate %v, %v", certs, err)
	}
}

func TestWaitForCertificateDenied(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := fake.NewClientset()
	signer(t, ctx, client, true)
	key := newKey(t)
	name, uid, err := RequestCertificate(client, makeCSR(t, key, "x"), "named", "example.com/signer", nil, nil, key)
	if err != nil || name != "named" {
		t.Fatal(name, err)
	}
	_, err = WaitForCertificate(ctx, client, name, uid)
	if err == nil || !strings.Contains(err.Error(), "denied, reason: NotAllowed, message: go away") {
		t.Fatalf("error = %v", err)
	}
}

func TestWaitForCertificateTimeout(t *testing.T) {
	client := fake.NewClientset()
	key := newKey(t)
	name, uid, err := RequestCertificate(client, makeCSR(t, key, "x"), "pending", "example.com/signer", nil, nil, key)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := WaitForCertificate(ctx, client, name, uid); err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("error = %v", err)
	}
	if _, err := WaitForCertificate(context.Background(), client, name, "other-uid"); err == nil || !strings.Contains(err.Error(), "changed UIDs") {
		t.Fatalf("error = %v", err)
	}
}

func TestRequestCertificateReusesCompatibleRequest(t *testing.T) {
	client := fake.NewClientset()
	key := newKey(t)
	csrPEM := makeCSR(t, key, "reuse")
	usages := []certificatesv1.KeyUsage{certificatesv1.UsageClientAuth}
	name1, uid1, err := RequestCertificate(client, csrPEM, "fixed", "example.com/signer", nil, usages, key)
	if err != nil {
		t.Fatal(err)
	}
	name2, uid2, err := RequestCertificate(client, csrPEM, "fixed", "example.com/signer", nil, usages, key)
	if err != nil || name1 != name2 || uid1 != uid2 {
		t.Fatalf("second request: %s %s %v (first %s %s)", name2, uid2, err, name1, uid1)
	}

	cases := []struct {
		name   string
		csr    []byte
		signer string
		usages []certificatesv1.KeyUsage
		key    interface{}
		want   string
	}{
		{"other key", csrPEM, "example.com/signer", usages, newKey(t), "different public key"},
		{"other subject", makeCSR(t, key, "someone-else"), "example.com/signer", usages, key, "subject"},
		{"other signer", csrPEM, "example.com/other", usages, key, "signer"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := RequestCertificate(client, tc.csr, "fixed", tc.signer, nil, tc.usages, tc.key)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

func TestRequestCertificateReuseRules(t *testing.T) {
	key := newKey(t)
	csrPEM := makeCSR(t, key, "reuse")
	usages := []certificatesv1.KeyUsage{certificatesv1.UsageClientAuth}
	tests := []struct {
		name       string
		existing   func(*certificatesv1.CertificateSigningRequest)
		signerName string
		usages     []certificatesv1.KeyUsage
		wantErr    string // empty: the existing request is reused
	}{
		{name: "same request", signerName: "example.com/signer", usages: usages},
		{name: "existing request names no signer", existing: func(c *certificatesv1.CertificateSigningRequest) { c.Spec.SignerName = "" }, signerName: "example.com/signer", usages: usages},
		{name: "new request names no signer", signerName: "", usages: usages},
		{name: "different signers", signerName: "example.com/other", usages: usages, wantErr: `csr signerNames differ: new "example.com/signer", orig: "example.com/other"`},
		{name: "different usages", signerName: "example.com/signer", usages: []certificatesv1.KeyUsage{certificatesv1.UsageServerAuth}},
		{name: "valid issued certificate", existing: func(c *certificatesv1.CertificateSigningRequest) {
			c.Status.Certificate = selfSignedPEM(t, key, time.Now().Add(time.Hour))
		}, signerName: "example.com/signer", usages: usages},
		{name: "expired issued certificate", existing: func(c *certificatesv1.CertificateSigningRequest) {
			c.Status.Certificate = selfSignedPEM(t, key, time.Now().Add(-time.Hour))
		}, signerName: "example.com/signer", usages: usages, wantErr: "expired"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			existing := &certificatesv1.CertificateSigningRequest{
				ObjectMeta: metav1.ObjectMeta{Name: "fixed", UID: "existing-uid"},
				Spec:       certificatesv1.CertificateSigningRequestSpec{Request: csrPEM, SignerName: "example.com/signer", Usages: usages},
			}
			if tc.existing != nil {
				tc.existing(existing)
			}
			client := fake.NewClientset(existing)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			name, uid, err := RequestCertificateWithContext(ctx, client, csrPEM, "fixed", tc.signerName, nil, tc.usages, key)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want it to mention %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || name != "fixed" || uid != "existing-uid" {
				t.Fatalf("RequestCertificateWithContext = %q, %q, %v; want the existing request reused", name, uid, err)
			}
		})
	}
}

// selfSignedPEM returns a PEM certificate for key valid until notAfter.
func selfSignedPEM(t *testing.T, key *ecdsa.PrivateKey, notAfter time.Time) []byte {
	t.Helper()
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "reuse"},
		NotBefore:    notAfter.Add(-2 * time.Hour),
		NotAfter:     notAfter,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

func TestExpirationSecondsConversion(t *testing.T) {
	if got := *DurationToExpirationSeconds(time.Hour + 500*time.Millisecond); got != 3600 {
		t.Errorf("DurationToExpirationSeconds = %d", got)
	}
	if got := ExpirationSecondsToDuration(600); got != 10*time.Minute {
		t.Errorf("ExpirationSecondsToDuration = %v", got)
	}
}

// ensureCompatible names the request it found "new" and the one it wanted
// to create "orig", in client-go's words.
func TestEnsureCompatibleSignerNames(t *testing.T) {
	key := newKey(t)
	req := makeCSR(t, key, "signers")
	withSigner := func(signer string) *certificatesv1.CertificateSigningRequest {
		return &certificatesv1.CertificateSigningRequest{Spec: certificatesv1.CertificateSigningRequestSpec{Request: req, SignerName: signer}}
	}
	tests := []struct {
		name          string
		existing, own string
		wantErr       string
	}{
		{name: "found request names no signer", existing: "", own: "example.com/test"},
		{name: "own request names no signer", existing: "example.com/test", own: ""},
		{name: "same signer", existing: "example.com/test", own: "example.com/test"},
		{name: "different signers", existing: "example.com/test", own: "example.com/not-test",
			wantErr: `csr signerNames differ: new "example.com/test", orig: "example.com/not-test"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := ensureCompatible(withSigner(tc.existing), withSigner(tc.own), key)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.wantErr {
				t.Errorf("ensureCompatible error = %q, want %q", got, tc.wantErr)
			}
		})
	}
}
