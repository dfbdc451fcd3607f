package install

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	"github.com/kubeclient/client-go/pkg/apis/clientauthentication"
)

func codecs(t *testing.T) serializer.CodecFactory {
	t.Helper()
	s := runtime.NewScheme()
	Install(s)
	return serializer.NewCodecFactory(s)
}

func TestDecodePluginOutput(t *testing.T) {
	for _, version := range []string{"v1", "v1beta1"} {
		t.Run(version, func(t *testing.T) {
			gv := schema.GroupVersion{Group: clientauthentication.GroupName, Version: version}
			data := `{"apiVersion":"client.authentication.k8s.io/` + version + `","kind":"ExecCredential",` +
				`"spec":{"interactive":true,"cluster":{"server":"https://k8s","certificate-authority-data":"Q0E=","config":{"aud":"x"}}},` +
				`"status":{"token":"tok","clientCertificateData":"cert","clientKeyData":"key","expirationTimestamp":"2030-01-02T03:04:05Z"}}`
			cred := &clientauthentication.ExecCredential{}
			_, gvk, err := codecs(t).UniversalDecoder(gv).Decode([]byte(data), nil, cred)
			if err != nil {
				t.Fatal(err)
			}
			if gvk.Version != version || gvk.Kind != "ExecCredential" {
				t.Errorf("gvk = %v", gvk)
			}
			st := cred.Status
			if st == nil || st.Token != "tok" || st.ClientCertificateData != "cert" || st.ClientKeyData != "key" ||
				!st.ExpirationTimestamp.Time.Equal(time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)) {
				t.Errorf("status = %+v", st)
			}
			cl := cred.Spec.Cluster
			if !cred.Spec.Interactive || cl == nil || cl.Server != "https://k8s" || string(cl.CertificateAuthorityData) != "CA" {
				t.Fatalf("spec = %+v", cred.Spec)
			}
			if u, ok := cl.Config.(*runtime.Unknown); !ok || string(u.Raw) != `{"aud":"x"}` {
				t.Errorf("cluster config = %#v", cl.Config)
			}
		})
	}
}

func TestEncodeRequest(t *testing.T) {
	exp := metav1.NewTime(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	cred := &clientauthentication.ExecCredential{
		Spec: clientauthentication.ExecCredentialSpec{Cluster: &clientauthentication.Cluster{
			Server: "https://k8s", InsecureSkipTLSVerify: true,
			Config: &runtime.Unknown{Raw: []byte(`{"aud":"y"}`), ContentType: runtime.ContentTypeJSON},
		}},
		Status: &clientauthentication.ExecCredentialStatus{ExpirationTimestamp: &exp},
	}
	for _, version := range []string{"v1", "v1beta1"} {
		gv := schema.GroupVersion{Group: clientauthentication.GroupName, Version: version}
		out, err := runtime.Encode(codecs(t).LegacyCodec(gv), cred)
		if err != nil {
			t.Fatal(err)
		}
		s := string(out)
		for _, want := range []string{
			`"apiVersion":"client.authentication.k8s.io/` + version + `"`, `"kind":"ExecCredential"`,
			`"interactive":false`, `"server":"https://k8s"`, `"insecure-skip-tls-verify":true`, `"config":{"aud":"y"}`,
			`"expirationTimestamp":"2030-01-01T00:00:00Z"`,
		} {
			if !strings.Contains(s, want) {
				t.Errorf("%s: encoded %s lacks %s", version, s, want)
			}
		}
	}
}

func TestDeepCopy(t *testing.T) {
	exp := metav1.Now()
	in := &clientauthentication.ExecCredential{
		Spec:   clientauthentication.ExecCredentialSpec{Cluster: &clientauthentication.Cluster{CertificateAuthorityData: []byte("ca"), Config: &runtime.Unknown{Raw: []byte("{}")}}},
		Status: &clientauthentication.ExecCredentialStatus{Token: "t", ExpirationTimestamp: &exp},
	}
	out := in.DeepCopyObject().(*clientauthentication.ExecCredential)
	out.Spec.Cluster.CertificateAuthorityData[0] = 'X'
	out.Spec.Cluster.Config.(*runtime.Unknown).Raw[0] = 'X'
	out.Status.Token = "changed"
	if string(in.Spec.Cluster.CertificateAuthorityData) != "ca" || in.Spec.Cluster.Config.(*runtime.Unknown).Raw[0] != '{' || in.Status.Token != "t" {
		t.Errorf("changing the copy changed the original")
	}
	if out.Status.ExpirationTimestamp == in.Status.ExpirationTimestamp {
		t.Errorf("expiration timestamp shared")
	}
}
