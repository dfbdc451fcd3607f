package compat

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/rest"
)

// README: "Request and response bodies logged at -v=8 and above never
// show secrets".

// TestVerboseLoggingOfSecrets: a program run with -v=8 reads a Secret.
// It gets the Secret's data, as on client-go; the log shows the request
// and response but not the data, the change the README states.
func TestVerboseLoggingOfSecrets(t *testing.T) {
	secret := &corev1.Secret{
		TypeMeta:   metav1.TypeMeta{Kind: "Secret", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "db"},
		Data:       map[string][]byte{"password": []byte("hunter2-secret")},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(secret)
	}))
	defer srv.Close()

	var logged bytes.Buffer
	flags := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(flags)
	for name, value := range map[string]string{"v": "8", "logtostderr": "false", "alsologtostderr": "false"} {
		if err := flags.Set(name, value); err != nil {
			t.Fatal(err)
		}
	}
	klog.SetOutput(&logged)
	defer func() {
		klog.Flush()
		_ = flags.Set("v", "0")
		_ = flags.Set("logtostderr", "true")
	}()

	client, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL, ContentConfig: rest.ContentConfig{ContentType: "application/json"}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := client.CoreV1().Secrets("ns").Get(context.Background(), "db", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Data["password"]) != "hunter2-secret" {
		t.Errorf("the program got %q, want the Secret's data", got.Data["password"])
	}
	klog.Flush()
	out := logged.String()
	if !strings.Contains(out, "Response Body") {
		t.Fatalf("nothing logged at -v=8:\n%s", out)
	}
	// The data travels base64-encoded.
	if strings.Contains(out, "aHVudGVyMi1zZWNyZXQ=") || strings.Contains(out, "hunter2-secret") {
		t.Errorf("the log shows the Secret's data:\n%s", out)
	}
}
