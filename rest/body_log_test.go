package rest

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/go-logr/logr/funcr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
)

// logCapture collects everything logged through the logger of its context,
// at every verbosity up to 10.
type logCapture struct {
	mu  sync.Mutex
	out strings.Builder
}

func (c *logCapture) context() context.Context {
	logger := funcr.New(func(prefix, args string) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.out.WriteString(prefix + " " + args + "\n")
	}, funcr.Options{Verbosity: 10})
	return klog.NewContext(context.Background(), logger)
}

func (c *logCapture) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.out.String()
}

const (
	secretValue   = "s3cr3t-p4ssw0rd"
	appliedSecret = "applied-secret-value"
)

func testSecret(name string) *corev1.Secret {
	return &corev1.Secret{
		TypeMeta: metav1.TypeMeta{Kind: "Secret", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", ResourceVersion: "9",
			Annotations: map[string]string{"kubectl.kubernetes.io/last-applied-configuration": `{"stringData":{"password":"` + appliedSecret + `"}}`}},
		Data:       map[string][]byte{"password": []byte(secretValue), "kind": []byte(secretValue), "path": []byte(secretValue)},
		StringData: map[string]string{"token": secretValue},
	}
}

// TestBodyLogsHoldNoSecrets runs requests whose bodies hold secrets with a
// logger at verbosity 10 and checks that the log names what was sent and
// received but holds no secret. client-go logs the bodies as they are.
func TestBodyLogsHoldNoSecrets(t *testing.T) {
	tokenRequest := `{"kind":"TokenRequest","apiVersion":"authentication.k8s.io/v1","metadata":{"name":"sa"},"status":{"token":"` + secretValue + `","expirationTimestamp":"2030-01-01T00:00:00Z"}}`
	cases := []struct {
		name     string
		respond  func(t *testing.T, w http.ResponseWriter)
		request  func(ctx context.Context, c *RESTClient) error
		protobuf bool
		want     []string // must be in the log
	}{{
		name:    "get a Secret",
		respond: func(t *testing.T, w http.ResponseWriter) { writeJSON(t, w, 200, testSecret("db")) },
		request: func(ctx context.Context, c *RESTClient) error {
			return c.Get().Namespace("default").Resource("secrets").Name("db").Do(ctx).Error()
		},
		want: []string{`\"kind\":\"Secret\"`, `\"name\":\"db\"`, `\"password\":\"<redacted>\"`},
	}, {
		name: "list Secrets",
		respond: func(t *testing.T, w http.ResponseWriter) {
			writeJSON(t, w, 200, &corev1.SecretList{TypeMeta: metav1.TypeMeta{Kind: "SecretList", APIVersion: "v1"},
				Items: []corev1.Secret{*testSecret("one"), *testSecret("two")}})
		},
		request: func(ctx context.Context, c *RESTClient) error {
			return c.Get().Namespace("default").Resource("secrets").Do(ctx).Error()
		},
		want: []string{`\"kind\":\"SecretList\"`, `\"name\":\"one\"`, `\"name\":\"two\"`},
	}, {
		name:    "create a Secret",
		respond: func(t *testing.T, w http.ResponseWriter) { writeJSON(t, w, 201, testSecret("db")) },
		request: func(ctx context.Context, c *RESTClient) error {
			return c.Post().Namespace("default").Resource("secrets").Body(testSecret("db")).Do(ctx).Error()
		},
		want: []string{"Request Body", `\"kind\":\"Secret\"`},
	}, {
		name:    "JSON patch of a Secret",
		respond: func(t *testing.T, w http.ResponseWriter) { writeJSON(t, w, 200, testSecret("db")) },
		request: func(ctx context.Context, c *RESTClient) error {
			patch := `[{"op":"replace","path":"/data/password","value":"` + base64.StdEncoding.EncodeToString([]byte(secretValue)) + `"}]`
			return c.Patch(types.JSONPatchType).Namespace("default").Resource("secrets").Name("db").Body([]byte(patch)).Do(ctx).Error()
		},
		want: []string{`\"op\":\"replace\"`, `\"path\":\"/data/password\"`, `\"value\":\"<redacted>\"`},
	}, {
		name: "a token request",
		respond: func(t *testing.T, w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(tokenRequest))
		},
		request: func(ctx context.Context, c *RESTClient) error {
			return c.Post().Namespace("default").Resource("serviceaccounts").Name("sa").SubResource("token").Body([]byte(`{}`)).Do(ctx).Error()
		},
		want: []string{`\"kind\":\"TokenRequest\"`},
	}, {
		name: "a Secret in protobuf",
		respond: func(t *testing.T, w http.ResponseWriter) {
			w.Header().Set("Content-Type", protobufMediaType)
			_, _ = w.Write(encodeAs(t, protobufMediaType, testSecret("db")))
		},
		request: func(ctx context.Context, c *RESTClient) error {
			return c.Get().Namespace("default").Resource("secrets").Name("db").Do(ctx).Error()
		},
		protobuf: true,
		want:     []string{"protobuf v1 Secret"},
	}, {
		name: "an error Status is logged whole",
		respond: func(t *testing.T, w http.ResponseWriter) {
			writeJSON(t, w, 403, statusBody(403, metav1.StatusReasonForbidden, `secrets "db" is forbidden: user jane cannot get`))
		},
		request: func(ctx context.Context, c *RESTClient) error {
			_ = c.Get().Namespace("default").Resource("secrets").Name("db").Do(ctx).Error()
			return nil
		},
		want: []string{`user jane cannot get`},
	}}
	secretForms := []string{
		secretValue,
		base64.StdEncoding.EncodeToString([]byte(secretValue)),
		appliedSecret,
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { tc.respond(t, w) }))
			defer srv.Close()
			c := coreV1Client(t, srv, func(c *Config) {
				if tc.protobuf {
					c.AcceptContentTypes = protobufMediaType
					c.ContentType = protobufMediaType
				}
			})
			var logs logCapture
			if err := tc.request(logs.context(), c); err != nil {
				t.Fatal(err)
			}
			out := logs.String()
			for _, secret := range secretForms {
				if strings.Contains(out, secret) {
					t.Errorf("the log holds %q:\n%s", secret, out)
				}
			}
			for _, want := range tc.want {
				if !strings.Contains(out, want) {
					t.Errorf("the log lacks %s:\n%s", want, out)
				}
			}
		})
	}
}

func TestLoggableBody(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{``, ``},
		{`not json`, `<8 bytes, not logged>`},
		{`{"broken":`, `<10 bytes, not logged>`},
		{`{"kind":"Status","message":"as is"}`, `{"kind":"Status","message":"as is"}`},
		{`{"kind":"ConfigMap","data":{"k":"v","n":1,"b":true,"z":null}}`, `{"data":{"b":true,"k":"<redacted>","n":"<redacted>","z":null},"kind":"ConfigMap"}`},
		{`{"spec":{"metadata":{"name":"nested"}}}`, `{"spec":{"metadata":{"name":"<redacted>"}}}`},
		{`["a",1]`, `["<redacted>","<redacted>"]`},
		{"\xd9\xd9\xf7\xa1", `<4 bytes, not logged>`},
	} {
		if got := loggableBody([]byte(tc.body)); got != tc.want {
			t.Errorf("loggableBody(%q) = %s, want %s", tc.body, got, tc.want)
		}
	}
}
