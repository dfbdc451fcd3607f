package csr

import (
	"context"
	"crypto"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"reflect"
	"time"

	certificatesv1 "k8s.io/api/certificates/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	clientset "github.com/kubeclient/client-go/kubernetes"
	certutil "github.com/kubeclient/client-go/util/cert"
)

// RequestCertificate is RequestCertificateWithContext with a background
// context.
//
// Deprecated: use RequestCertificateWithContext instead.
func RequestCertificate(client clientset.Interface, csrData []byte, name, signerName string, requestedDuration *time.Duration, usages []certificatesv1.KeyUsage, privateKey interface{}) (reqName string, reqUID types.UID, err error) {
	return RequestCertificateWithContext(context.Background(), client, csrData, name, signerName, requestedDuration, usages, privateKey)
}

// RequestCertificateWithContext files a CertificateSigningRequest for the PEM
// encoded request csrData and returns its name and UID. With an empty name the
// server generates one ("csr-" prefix). If a request called name already
// exists (left by an earlier run of the process) it is reused, provided it
// asks for the same thing with the same key. requestedDuration, if set, fills
// spec.expirationSeconds; signers may ignore it.
func RequestCertificateWithContext(ctx context.Context, client clientset.Interface, csrData []byte, name, signerName string, requestedDuration *time.Duration, usages []certificatesv1.KeyUsage, privateKey interface{}) (reqName string, reqUID types.UID, err error) {
	want := &certificatesv1.CertificateSigningRequest{
		TypeMeta:   metav1.TypeMeta{APIVersion: "certificates.k8s.io/v1", Kind: "CertificateSigningRequest"},
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: certificatesv1.CertificateSigningRequestSpec{
			Request:    csrData,
			Usages:     usages,
			SignerName: signerName,
		},
	}
	if name == "" {
		want.GenerateName = "csr-"
	}
	if requestedDuration != nil {
		want.Spec.ExpirationSeconds = DurationToExpirationSeconds(*requestedDuration)
	}

	csrs := client.CertificatesV1().CertificateSigningRequests()
	got, err := csrs.Create(ctx, want, metav1.CreateOptions{})
	switch {
	case err == nil:
	case apierrors.IsAlreadyExists(err) && name != "":
		got, err = csrs.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return "", "", fmt.Errorf("get existing certificate signing request %q: %w", name, err)
		}
		if err := ensureCompatible(got, want, privateKey); err != nil {
			return "", "", fmt.Errorf("existing certificate signing request %q cannot be reused: %w", name, err)
		}
	default:
		return "", "", fmt.Errorf("cannot create certificate signing request: %w", err)
	}
	return got.Name, got.UID, nil
}

// ensureCompatible reports whether existing, a request found under the name
// we wanted, can stand for want: it must have the same subject, must not name
// a different signer (an unset signer on either side matches), must be signed
// by privateKey, and must not carry an expired certificate.
func ensureCompatible(existing, want *certificatesv1.CertificateSigningRequest, privateKey interface{}) error {
	existingReq, err := parseCSR(existing.Spec.Request)
	if err != nil {
		return fmt.Errorf("parse existing request: %w", err)
	}
	wantReq, err := parseCSR(want.Spec.Request)
	if err != nil {
		return fmt.Errorf("parse new request: %w", err)
	}
	if !reflect.DeepEqual(existingReq.Subject, wantReq.Subject) {
		return fmt.Errorf("subject %q differs from %q", existingReq.Subject, wantReq.Subject)
	}
	if existing.Spec.SignerName != "" && want.Spec.SignerName != "" && existing.Spec.SignerName != want.Spec.SignerName {
		// client-go's wording: the request found is "new", ours "orig".
		return fmt.Errorf("csr signerNames differ: new %q, orig: %q", existing.Spec.SignerName, want.Spec.SignerName)
	}
	signer, ok := privateKey.(crypto.Signer)
	if !ok {
		return fmt.Errorf("private key of type %T cannot sign", privateKey)
	}
	pub, ok := signer.Public().(interface{ Equal(crypto.PublicKey) bool })
	if !ok || !pub.Equal(existingReq.PublicKey) {
		return errors.New("the request is for a different public key")
	}
	if len(existing.Status.Certificate) > 0 {
		certs, err := certutil.ParseCertsPEM(existing.Status.Certificate)
		if err != nil {
			return fmt.Errorf("parse issued certificate: %w", err)
		}
		now := time.Now()
		for _, c := range certs {
			if now.After(c.NotAfter) {
				return fmt.Errorf("issued certificate expired at %s", c.NotAfter)
			}
		}
	}
	return nil
}

func parseCSR(data []byte) (*x509.CertificateRequest, error) {
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "CERTIFICATE REQUEST" {
		return nil, errors.New("no CERTIFICATE REQUEST PEM block found")
	}
	return x509.ParseCertificateRequest(block.Bytes)
}

// WaitForCertificate watches the request reqName until it is approved and
// has a certificate, which it returns. It fails when the request is denied or
// fails, when it is replaced by a request with another UID, or when ctx ends.
func WaitForCertificate(ctx context.Context, client clientset.Interface, reqName string, reqUID types.UID) (certData []byte, err error) {
	csrs := client.CertificatesV1().CertificateSigningRequests()
	selector := fields.OneTermEqualSelector("metadata.name", reqName).String()
	for {
		list, err := csrs.List(ctx, metav1.ListOptions{FieldSelector: selector})
		if err != nil {
			return nil, fmt.Errorf("list certificate signing request %q: %w", reqName, err)
		}
		for i := range list.Items {
			if done, cert, err := issued(&list.Items[i], reqName, reqUID); done || err != nil {
				return cert, err
			}
		}
		w, err := csrs.Watch(ctx, metav1.ListOptions{FieldSelector: selector, ResourceVersion: list.ResourceVersion})
		if err != nil {
			return nil, fmt.Errorf("watch certificate signing request %q: %w", reqName, err)
		}
		cert, done, err := watchUntilIssued(ctx, w, reqName, reqUID)
		w.Stop()
		if done || err != nil {
			return cert, err
		}
		// The watch ended early: list again and resume.
	}
}

func watchUntilIssued(ctx context.Context, w watch.Interface, reqName string, reqUID types.UID) ([]byte, bool, error) {
	for {
		select {
		case <-ctx.Done():
			return nil, false, fmt.Errorf("timed out waiting for the certificate of %q: %w", reqName, ctx.Err())
		case ev, ok := <-w.ResultChan():
			if !ok {
				return nil, false, nil
			}
			switch ev.Type {
			case watch.Added, watch.Modified:
				csr, ok := ev.Object.(*certificatesv1.CertificateSigningRequest)
				if !ok {
					return nil, false, fmt.Errorf("unexpected object %T in watch of %q", ev.Object, reqName)
				}
				if done, cert, err := issued(csr, reqName, reqUID); done || err != nil {
					return cert, true, err
				}
			case watch.Deleted:
				return nil, true, fmt.Errorf("certificate signing request %q was deleted", reqName)
			case watch.Error:
				return nil, true, fmt.Errorf("watch of certificate signing request %q: %w", reqName, apierrors.FromObject(ev.Object))
			}
		}
	}
}

// issued reports whether csr is finished: approved with a certificate (which
// it returns), or denied or failed (an error).
func issued(csr *certificatesv1.CertificateSigningRequest, reqName string, reqUID types.UID) (bool, []byte, error) {
	if csr.Name != reqName {
		return false, nil, nil
	}
	if csr.UID != reqUID {
		return true, nil, fmt.Errorf("certificate signing request %q changed UIDs (%s, expected %s)", reqName, csr.UID, reqUID)
	}
	approved := false
	for _, c := range csr.Status.Conditions {
		switch c.Type {
		case certificatesv1.CertificateDenied:
			return true, nil, fmt.Errorf("certificate signing request is denied, reason: %v, message: %v", c.Reason, c.Message)
		case certificatesv1.CertificateFailed:
			return true, nil, fmt.Errorf("certificate signing request failed, reason: %v, message: %v", c.Reason, c.Message)
		case certificatesv1.CertificateApproved:
			if c.Status == corev1.ConditionTrue || c.Status == "" {
				approved = true
			}
		}
	}
	if approved && len(csr.Status.Certificate) > 0 {
		return true, csr.Status.Certificate, nil
	}
	return false, nil, nil
}

// DurationToExpirationSeconds converts a duration to the whole seconds of
// spec.expirationSeconds.
func DurationToExpirationSeconds(duration time.Duration) *int32 {
	s := int32(duration / time.Second)
	return &s
}

// ExpirationSecondsToDuration converts spec.expirationSeconds to a duration.
func ExpirationSecondsToDuration(expirationSeconds int32) time.Duration {
	return time.Duration(expirationSeconds) * time.Second
}
