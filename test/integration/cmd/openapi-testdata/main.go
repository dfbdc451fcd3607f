// Command openapi-testdata writes the OpenAPI v3 documents that
// openapi/openapitest embeds, fetched from the real kube-apiserver of the
// integration control plane. hack/update-openapi-testdata.sh runs it.
//
// kube-apiserver v1.37 no longer serves networking.k8s.io/v1alpha1, which
// openapitest (like client-go's) offers; its document is derived from the
// served networking.k8s.io/v1beta1 one (the IPAddress and ServiceCIDR types
// had the same shape in both) by renaming the version in paths and schema
// names.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/discovery"
	"github.com/kubeclient/client-go/testenv"
)

// served are the API paths fetched as they are, from kube-apiserver as
// released.
var served = []string{"api/v1", "apis/apps/v1", "apis/batch/v1", "apis/discovery.k8s.io/v1"}

func main() {
	out := flag.String("out", "", "folder to write the *_openapi.json files to")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "openapi-testdata: -out is required")
		os.Exit(2)
	}
	if err := run(*out); err != nil {
		fmt.Fprintf(os.Stderr, "openapi-testdata: %v\n", err)
		os.Exit(1)
	}
}

func run(out string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	docs, err := fetch(ctx, nil, served...)
	if err != nil {
		return err
	}
	for _, apiPath := range served {
		if err := write(out, apiPath, docs[apiPath]); err != nil {
			return err
		}
	}
	// v1beta1 of networking.k8s.io is served only when kube-apiserver
	// emulates an older release; nothing else is taken from that server.
	const beta = "apis/networking.k8s.io/v1beta1"
	docs, err = fetch(ctx, []string{"--emulated-version=1.35", "--runtime-config=networking.k8s.io/v1beta1=true"}, beta)
	if err != nil {
		return err
	}
	alpha := strings.NewReplacer(
		"/apis/networking.k8s.io/v1beta1", "/apis/networking.k8s.io/v1alpha1",
		"io.k8s.api.networking.v1beta1.", "io.k8s.api.networking.v1alpha1.",
		`"version":"v1beta1"`, `"version":"v1alpha1"`,
		"networking.k8s.io/v1beta1", "networking.k8s.io/v1alpha1",
	).Replace(string(docs[beta]))
	return write(out, "apis/networking.k8s.io/v1alpha1", []byte(alpha))
}

// fetch starts a control plane with extraArgs for kube-apiserver and returns
// the JSON OpenAPI v3 documents of apiPaths, read through the library's
// OpenAPI v3 client.
func fetch(ctx context.Context, extraArgs []string, apiPaths ...string) (map[string][]byte, error) {
	// The documents are kube-apiserver's; no controller is needed.
	cp, err := testenv.Start(ctx, testenv.Options{APIServerArgs: extraArgs, DisableControllerManager: true})
	if err != nil {
		return nil, err
	}
	defer cp.Stop()
	client, err := discovery.NewDiscoveryClientForConfig(cp.AdminConfig())
	if err != nil {
		return nil, err
	}
	paths, err := client.OpenAPIV3().Paths()
	if err != nil {
		return nil, fmt.Errorf("listing /openapi/v3: %w", err)
	}
	docs := map[string][]byte{}
	for _, apiPath := range apiPaths {
		gv, ok := paths[apiPath]
		if !ok {
			return nil, fmt.Errorf("kube-apiserver serves no OpenAPI v3 document for %s (it serves %d others)", apiPath, len(paths))
		}
		body, err := gv.Schema(runtime.ContentTypeJSON)
		if err != nil {
			return nil, fmt.Errorf("fetching the %s document: %w", apiPath, err)
		}
		docs[apiPath] = body
	}
	return docs, nil
}

// write stores body, indented, as out/<apiPath with "/" as "__">_openapi.json.
func write(out, apiPath string, body []byte) error {
	var indented bytes.Buffer
	if err := json.Indent(&indented, body, "", "  "); err != nil {
		return fmt.Errorf("%s is not JSON: %w", apiPath, err)
	}
	indented.WriteByte('\n')
	name := filepath.Join(out, strings.ReplaceAll(apiPath, "/", "__")+"_openapi.json")
	return os.WriteFile(name, indented.Bytes(), 0o644)
}
