package testenv

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// EtcdRevision returns etcd's current revision, which is the newest
// resourceVersion kube-apiserver can have handed out. It asks etcd's JSON
// gateway on EtcdURL.
func (env *Env) EtcdRevision(ctx context.Context) (int64, error) {
	var out struct {
		Header struct {
			Revision json.RawMessage `json:"revision"`
		} `json:"header"`
	}
	req := map[string]any{
		"key":        base64.StdEncoding.EncodeToString([]byte("/")),
		"count_only": true,
	}
	if err := env.etcdCall(ctx, "/v3/kv/range", req, &out); err != nil {
		return 0, err
	}
	return parseEtcdInt(out.Header.Revision)
}

// CompactEtcd compacts etcd's key-value history before revision, physically
// (the call returns once the old revisions are gone). Afterwards reads and
// watches of a resourceVersion older than revision that reach etcd fail with
// "required revision has been compacted", which kube-apiserver turns into 410
// Gone (reason Expired). It does not tell kube-apiserver's watch cache.
func (env *Env) CompactEtcd(ctx context.Context, revision int64) error {
	req := map[string]any{"revision": strconv.FormatInt(revision, 10), "physical": true}
	return env.etcdCall(ctx, "/v3/kv/compaction", req, nil)
}

// etcdCall posts body as JSON to etcd's gRPC gateway path and decodes the
// answer into out (when not nil).
func (env *Env) etcdCall(ctx context.Context, path string, body, out any) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, env.EtcdURL+path, bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("etcd %s: %w", path, err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("etcd %s: reading the answer: %w", path, err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("etcd %s: %s: %s", path, resp.Status, strings.TrimSpace(string(answer)))
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(answer, out); err != nil {
		return fmt.Errorf("etcd %s: decoding %q: %w", path, answer, err)
	}
	return nil
}

// parseEtcdInt reads an int64 that the gateway writes as a JSON string (or,
// leniently, as a number).
func parseEtcdInt(raw json.RawMessage) (int64, error) {
	s := strings.Trim(string(raw), `"`)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("etcd answered revision %s: %w", raw, err)
	}
	return n, nil
}

// etcdArgs is etcd's command line for a single member listening on the
// given loopback URLs, keeping its data under dataDir.
func etcdArgs(clientURL, peerURL, dataDir string) []string {
	return []string{
		"--name=testenv",
		"--data-dir=" + dataDir,
		"--listen-client-urls=" + clientURL,
		"--advertise-client-urls=" + clientURL,
		"--listen-peer-urls=" + peerURL,
		"--initial-advertise-peer-urls=" + peerURL,
		"--initial-cluster=testenv=" + peerURL,
		"--unsafe-no-fsync",
		"--log-level=warn",
	}
}
