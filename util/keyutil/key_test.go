package keyutil

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

// keyFixtures holds one RSA and one ECDSA key in every supported encoding.
type keyFixtures struct {
	rsaKey *rsa.PrivateKey
	ecKey  *ecdsa.PrivateKey

	rsaPKCS1, rsaPKCS8, rsaPublic, rsaCert []byte
	ecSEC1, ecPKCS8, ecPublic, ecCert      []byte
	ed25519PKCS8                           []byte
}

func newKeyFixtures(t *testing.T) *keyFixtures {
	t.Helper()
	f := &keyFixtures{}
	var err error
	if f.rsaKey, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
		t.Fatal(err)
	}
	if f.ecKey, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader); err != nil {
		t.Fatal(err)
	}
	encode := func(typ string, der []byte) []byte {
		return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der})
	}
	must := func(b []byte, err error) []byte {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	selfSign := func(pub, priv any) []byte {
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "k"}, NotBefore: time.Now(), NotAfter: time.Now().Add(time.Hour)}
		return must(x509.CreateCertificate(rand.Reader, tmpl, tmpl, pub, priv))
	}

	f.rsaPKCS1 = encode(RSAPrivateKeyBlockType, x509.MarshalPKCS1PrivateKey(f.rsaKey))
	f.rsaPKCS8 = encode(PrivateKeyBlockType, must(x509.MarshalPKCS8PrivateKey(f.rsaKey)))
	f.rsaPublic = encode(PublicKeyBlockType, must(x509.MarshalPKIXPublicKey(&f.rsaKey.PublicKey)))
	f.rsaCert = encode("CERTIFICATE", selfSign(&f.rsaKey.PublicKey, f.rsaKey))
	f.ecSEC1 = encode(ECPrivateKeyBlockType, must(x509.MarshalECPrivateKey(f.ecKey)))
	f.ecPKCS8 = encode(PrivateKeyBlockType, must(x509.MarshalPKCS8PrivateKey(f.ecKey)))
	f.ecPublic = encode(PublicKeyBlockType, must(x509.MarshalPKIXPublicKey(&f.ecKey.PublicKey)))
	f.ecCert = encode("CERTIFICATE", selfSign(&f.ecKey.PublicKey, f.ecKey))
	_, edKey, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	f.ed25519PKCS8 = encode(PrivateKeyBlockType, must(x509.MarshalPKCS8PrivateKey(edKey)))
	return f
}

func join(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func TestParsePrivateKeyPEM(t *testing.T) {
	f := newKeyFixtures(t)
	junk := pem.EncodeToMemory(&pem.Block{Type: RSAPrivateKeyBlockType, Bytes: []byte("not a key")})
	tests := []struct {
		name    string
		data    []byte
		want    any
		wantErr bool
	}{
		{name: "RSA PKCS1", data: f.rsaPKCS1, want: f.rsaKey},
		{name: "RSA PKCS8", data: f.rsaPKCS8, want: f.rsaKey},
		{name: "EC SEC1", data: f.ecSEC1, want: f.ecKey},
		{name: "EC PKCS8", data: f.ecPKCS8, want: f.ecKey},
		{name: "first valid key after a certificate and junk", data: join(f.rsaCert, junk, f.ecSEC1, f.rsaPKCS1), want: f.ecKey},
		{name: "public key only", data: f.rsaPublic, wantErr: true},
		{name: "garbage", data: []byte("hello"), wantErr: true},
		{name: "empty", data: nil, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParsePrivateKeyPEM(tt.data)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("parsed %T, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(publicOf(t, got), publicOf(t, tt.want)) {
				t.Errorf("parsed a different key (%T)", got)
			}
		})
	}
}

func publicOf(t *testing.T, key any) any {
	t.Helper()
	switch k := key.(type) {
	case *rsa.PrivateKey:
		return &k.PublicKey
	case *ecdsa.PrivateKey:
		return &k.PublicKey
	}
	t.Fatalf("unexpected key type %T", key)
	return nil
}

func TestParsePublicKeysPEM(t *testing.T) {
	f := newKeyFixtures(t)
	rsaPub, ecPub := &f.rsaKey.PublicKey, &f.ecKey.PublicKey
	tests := []struct {
		name    string
		data    []byte
		want    []any
		wantErr bool
	}{
		{name: "RSA public", data: f.rsaPublic, want: []any{rsaPub}},
		{name: "RSA private PKCS1", data: f.rsaPKCS1, want: []any{rsaPub}},
		{name: "RSA private PKCS8", data: f.rsaPKCS8, want: []any{rsaPub}},
		{name: "RSA certificate", data: f.rsaCert, want: []any{rsaPub}},
		{name: "EC public", data: f.ecPublic, want: []any{ecPub}},
		{name: "EC private", data: f.ecSEC1, want: []any{ecPub}},
		{name: "EC certificate", data: f.ecCert, want: []any{ecPub}},
		{name: "several in order", data: join(f.ecPublic, f.rsaPKCS1, f.ecCert), want: []any{ecPub, rsaPub, ecPub}},
		{name: "unsupported key type skipped", data: join(f.ed25519PKCS8, f.rsaPublic), want: []any{rsaPub}},
		{name: "only unsupported", data: f.ed25519PKCS8, wantErr: true},
		{name: "empty", data: nil, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParsePublicKeysPEM(tt.data)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("parsed %d keys, want an error", len(got))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %d keys %T, want %d", len(got), got, len(tt.want))
			}
		})
	}
}

func TestMarshalPrivateKeyToPEMRoundTrip(t *testing.T) {
	f := newKeyFixtures(t)
	tests := []struct {
		name      string
		key       any
		wantBlock string
		wantErr   bool
	}{
		{name: "RSA", key: f.rsaKey, wantBlock: RSAPrivateKeyBlockType},
		{name: "ECDSA", key: f.ecKey, wantBlock: ECPrivateKeyBlockType},
		{name: "unsupported", key: "a string", wantErr: true},
		{name: "nil", key: nil, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := MarshalPrivateKeyToPEM(tt.key)
			if tt.wantErr {
				if err == nil || !strings.Contains(err.Error(), "not a recognized type") {
					t.Fatalf("error = %v, want a type error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			block, _ := pem.Decode(data)
			if block == nil || block.Type != tt.wantBlock {
				t.Fatalf("block = %v, want type %q", block, tt.wantBlock)
			}
			back, err := ParsePrivateKeyPEM(data)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(publicOf(t, back), publicOf(t, tt.key)) {
				t.Error("round trip changed the key")
			}
		})
	}
}

func TestMakeEllipticPrivateKeyPEM(t *testing.T) {
	data, err := MakeEllipticPrivateKeyPEM()
	if err != nil {
		t.Fatal(err)
	}
	key, err := ParsePrivateKeyPEM(data)
	if err != nil {
		t.Fatal(err)
	}
	ec, ok := key.(*ecdsa.PrivateKey)
	if !ok || ec.Curve != elliptic.P256() {
		t.Errorf("generated %T, want a P-256 *ecdsa.PrivateKey", key)
	}
}

func TestLoadOrGenerateKeyFile(t *testing.T) {
	f := newKeyFixtures(t)
	tests := []struct {
		name          string
		existing      []byte // nil: no file
		wantGenerated bool
		wantErr       bool
	}{
		{name: "missing file is generated", wantGenerated: true},
		{name: "valid key is loaded", existing: f.rsaPKCS1},
		{name: "invalid content is an error", existing: []byte("garbage"), wantErr: true},
		{name: "empty file is an error", existing: []byte{}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "nested", "dir", "key.pem")
			if tt.existing != nil {
				if err := WriteKey(path, tt.existing); err != nil {
					t.Fatal(err)
				}
			}
			data, generated, err := LoadOrGenerateKeyFile(path)
			if tt.wantErr {
				if err == nil || !strings.Contains(err.Error(), path) {
					t.Fatalf("error = %v, want one naming %s", err, path)
				}
				onDisk, _ := os.ReadFile(path)
				if string(onDisk) != string(tt.existing) {
					t.Error("the invalid file was overwritten")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if generated != tt.wantGenerated {
				t.Errorf("wasGenerated = %v, want %v", generated, tt.wantGenerated)
			}
			if !tt.wantGenerated && string(data) != string(tt.existing) {
				t.Error("loaded data differs from the file")
			}
			onDisk, err := os.ReadFile(path)
			if err != nil || string(onDisk) != string(data) {
				t.Errorf("file content differs from returned data (err %v)", err)
			}
			if _, err := ParsePrivateKeyPEM(data); err != nil {
				t.Errorf("returned data is not a key: %v", err)
			}
			again, generatedAgain, err := LoadOrGenerateKeyFile(path)
			if err != nil || generatedAgain || string(again) != string(data) {
				t.Errorf("second call = (%d bytes, %v, %v), want the same key loaded", len(again), generatedAgain, err)
			}
		})
	}
}

func TestWriteKeyMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "key")
	if err := WriteKey(path, []byte("x")); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", info.Mode().Perm())
	}
	if err := WriteKey(path, []byte("y")); err != nil {
		t.Fatalf("overwrite: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "y" {
		t.Errorf("content %q after overwrite", b)
	}
}

func TestKeysFromFile(t *testing.T) {
	f := newKeyFixtures(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.pem")
	bad := filepath.Join(dir, "bad.pem")
	if err := os.WriteFile(good, join(f.ecSEC1, f.rsaPublic), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("nothing"), 0o600); err != nil {
		t.Fatal(err)
	}

	if key, err := PrivateKeyFromFile(good); err != nil {
		t.Errorf("PrivateKeyFromFile: %v", err)
	} else if _, ok := key.(*ecdsa.PrivateKey); !ok {
		t.Errorf("PrivateKeyFromFile returned %T", key)
	}
	if keys, err := PublicKeysFromFile(good); err != nil || len(keys) != 2 {
		t.Errorf("PublicKeysFromFile = %d keys, %v; want 2", len(keys), err)
	}
	for _, fn := range []func(string) error{
		func(p string) error { _, err := PrivateKeyFromFile(p); return err },
		func(p string) error { _, err := PublicKeysFromFile(p); return err },
	} {
		if err := fn(bad); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("bad file: error %v, want one naming the file", err)
		}
		if err := fn(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
			t.Errorf("missing file: error %v, want not-exist", err)
		}
	}
}

// TestWriteKeyLeavesMode0600 checks that a written key file is readable by
// its owner only, also when it existed with a wider mode: client-go keeps
// an existing file's mode, leaving a 0644 key file world-readable.
func TestWriteKeyLeavesMode0600(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("file modes are POSIX")
	}
	key, err := MakeEllipticPrivateKeyPEM()
	if err != nil {
		t.Fatal(err)
	}
	for _, existingMode := range []os.FileMode{0, 0o644, 0o666, 0o640, 0o600} {
		t.Run(existingMode.String(), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "dir", "key.pem")
			if existingMode != 0 {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte("old key, longer than nothing"), existingMode); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(path, existingMode); err != nil {
					t.Fatal(err)
				}
			}
			if err := WriteKey(path, key); err != nil {
				t.Fatal(err)
			}
			info, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := info.Mode().Perm(); got != 0o600 {
				t.Errorf("mode after WriteKey = %v, want -rw-------", got)
			}
			if got, _ := os.ReadFile(path); string(got) != string(key) {
				t.Errorf("content = %q, want the key", got)
			}
		})
	}
}
