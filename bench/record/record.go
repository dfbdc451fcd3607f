package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/testenv"
)

// Media types the recorder asks for.
const (
	acceptJSON     = "application/json"
	acceptProtobuf = "application/vnd.kubernetes.protobuf"
	asMetaList     = ";as=PartialObjectMetadataList;g=meta.k8s.io;v=v1"
	asMeta         = ";as=PartialObjectMetadata;g=meta.k8s.io;v=v1"
)

// Entry describes one recorded response in testdata/index.json.
type Entry struct {
	File        string `json:"file"`
	Path        string `json:"path"`
	Accept      string `json:"accept"`
	ContentType string `json:"contentType"`
	Status      int    `json:"status"`
}

type recorder struct {
	env   *testenv.Env
	cs    *kubernetes.Clientset
	http  *http.Client
	host  string
	out   string
	mu    sync.Mutex
	index []Entry
}

func newRecorder(env *testenv.Env, out string) (*recorder, error) {
	cfg := env.AdminConfig()
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	return &recorder{env: env, http: hc, host: strings.TrimSuffix(cfg.Host, "/"), out: out}, nil
}

type resourceSpec struct {
	name     string // file name prefix
	path     string // collection path
	one      string // name of the object to GET
	protobuf bool   // the server serves protobuf for it
}

func (r *recorder) recordAll(ctx context.Context) error {
	pods, err := r.cs.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	specs := []resourceSpec{
		{name: "pod", path: "/api/v1/namespaces/" + namespace + "/pods", one: pods.Items[0].Name, protobuf: true},
		{name: "configmap", path: "/api/v1/namespaces/" + namespace + "/configmaps", one: "storefront-config", protobuf: true},
		{name: "widget", path: "/apis/example.com/v1/namespaces/" + namespace + "/widgets", one: "widget-0"},
	}
	formats := func(s resourceSpec) map[string]string {
		m := map[string]string{"json": acceptJSON}
		if s.protobuf {
			m["pb"] = acceptProtobuf
		}
		return m
	}
	for _, s := range specs {
		for ext, accept := range formats(s) {
			if err := r.get(ctx, s.name+".get."+ext, s.path+"/"+s.one, accept); err != nil {
				return err
			}
			if err := r.get(ctx, s.name+".list."+ext, s.path, accept); err != nil {
				return err
			}
		}
	}
	// Metadata-only lists, as the metadata client asks for them.
	if err := r.get(ctx, "pod.metalist.pb", specs[0].path, acceptProtobuf+asMetaList+","+acceptJSON+asMetaList+","+acceptJSON); err != nil {
		return err
	}
	if err := r.get(ctx, "pod.metalist.json", specs[0].path, acceptJSON+asMetaList+","+acceptJSON); err != nil {
		return err
	}

	// Watch streams: each from the current resourceVersion, for a few
	// seconds, while the objects change.
	rv := pods.ResourceVersion
	var watches []func() error
	for _, s := range specs {
		for ext, accept := range formats(s) {
			watches = append(watches, r.watch(ctx, s.name+".watch."+ext, s.path+"?watch=true&allowWatchBookmarks=true&timeoutSeconds=4&resourceVersion="+rv, accept))
		}
	}
	watches = append(watches,
		r.watch(ctx, "pod.metawatch.pb", specs[0].path+"?watch=true&timeoutSeconds=4&resourceVersion="+rv, acceptProtobuf+asMeta+","+acceptJSON+asMeta+","+acceptJSON),
		r.watch(ctx, "pod.watchlist.json", specs[0].path+"?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=4", acceptJSON),
		r.watch(ctx, "pod.watchlist.pb", specs[0].path+"?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=4", acceptProtobuf),
	)
	time.Sleep(500 * time.Millisecond)
	if err := r.change(ctx, pods.Items[0].Name, pods.Items[1].Name); err != nil {
		return err
	}
	for _, finish := range watches {
		if err := finish(); err != nil {
			return err
		}
	}
	return nil
}

// change makes the kind of updates a cluster sees all the time: a kubelet
// reporting a container restart, a ConfigMap edit, a controller writing a
// custom resource's status.
func (r *recorder) change(ctx context.Context, pod1, pod2 string) error {
	for i, name := range []string{pod1, pod2, pod1} {
		patch := fmt.Sprintf(`{"status":{"conditions":[{"type":"Ready","status":"True","lastProbeTime":null,"lastTransitionTime":"%s"}]}}`,
			time.Now().UTC().Add(time.Duration(i)*time.Second).Format(time.RFC3339))
		if _, err := r.cs.CoreV1().Pods(namespace).Patch(ctx, name, types.StrategicMergePatchType, []byte(patch),
			metav1.PatchOptions{FieldManager: "kubelet"}, "status"); err != nil {
			return fmt.Errorf("pod status change: %w", err)
		}
	}
	if _, err := r.cs.CoreV1().ConfigMaps(namespace).Patch(ctx, "storefront-config", types.MergePatchType,
		[]byte(`{"data":{"LOG_LEVEL":"debug"}}`), metav1.PatchOptions{FieldManager: "kubectl-edit"}); err != nil {
		return fmt.Errorf("configmap change: %w", err)
	}
	req := r.cs.CoreV1().RESTClient().Patch(types.MergePatchType).AbsPath("/apis/example.com/v1/namespaces/"+namespace+"/widgets/widget-0/status").
		Param("fieldManager", "widget-controller").Body([]byte(`{"status":{"readyReplicas":2,"phase":"Degraded"}}`))
	if err := req.Do(ctx).Error(); err != nil {
		return fmt.Errorf("widget status change: %w", err)
	}
	return nil
}

func (r *recorder) get(ctx context.Context, file, path, accept string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.host+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", accept)
	resp, err := r.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s: %s", path, resp.Status, body)
	}
	return r.save(file, path, accept, resp, body)
}

// watch opens a watch and returns a function that waits for the server to
// end it (timeoutSeconds) and saves the stream.
func (r *recorder) watch(ctx context.Context, file, path, accept string) func() error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.host+path, nil)
	if err != nil {
		return func() error { return err }
	}
	req.Header.Set("Accept", accept)
	resp, err := r.http.Do(req)
	if err != nil {
		return func() error { return err }
	}
	done := make(chan error, 1)
	go func() {
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err == nil && resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("watch %s: %s: %s", path, resp.Status, body)
		}
		if err == nil {
			err = r.save(file, path, accept, resp, body)
		}
		done <- err
	}()
	return func() error { return <-done }
}

func (r *recorder) save(file, path, accept string, resp *http.Response, body []byte) error {
	if err := os.WriteFile(filepath.Join(r.out, file), body, 0o644); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.index = append(r.index, Entry{File: file, Path: path, Accept: accept, ContentType: resp.Header.Get("Content-Type"), Status: resp.StatusCode})
	return nil
}

func (r *recorder) writeIndex() error {
	data, err := json.MarshalIndent(r.index, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(r.out, "index.json"), append(data, '\n'), 0o644)
}
