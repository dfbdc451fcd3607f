// Package watch tests watches and resourceVersion semantics against a real
// kube-apiserver, through the typed clientset and rest.RESTClient, in JSON
// and protobuf:
//
//   - a watcher that stops, is cut by the server (timeoutSeconds) and resumes
//     from the last resourceVersion it saw observes exactly the writes that
//     concurrent writers had acknowledged, in resourceVersion order;
//   - bookmarks (AllowWatchBookmarks) carry only a resourceVersion, and a
//     watch resumed from one misses nothing;
//   - watch-list streaming (SendInitialEvents): the initial ADDED events, the
//     bookmark annotated k8s.io/initial-events-end, then live events; and a
//     tools/cache Reflector that syncs its store through that stream;
//   - Get and List at resourceVersion "", "0", Exact and NotOlderThan;
//     Conflict on a stale Update and util/retry.RetryOnConflict;
//   - 410 Gone, made deterministic by compacting etcd through its JSON
//     gateway (framework.ControlPlane.CompactEtcd): an expired continue token
//     and the "inconsistent continue" token it carries, tools/pager's
//     fallback to a full list, a watch and an Exact list at a compacted
//     resourceVersion.
//
// The control plane of this package runs with two changes, both for the 410
// tests. --feature-gates=ListFromCacheSnapshot=false: with the gate on (the
// 1.37 default) the watch cache keeps snapshots and answers continue tokens
// and Exact lists from them, so whether a compacted revision is still served
// depends on when the cache's own compactor (polling every 15s) catches up.
// --watch-cache-sizes=podtemplates#0: PodTemplates bypass the watch cache,
// so their watches are etcd watches and a watch from a compacted revision
// fails every time; a cached watch would be served from the cache's event
// window, which etcd compaction does not shorten.
package watch

import (
	"testing"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/test/integration/framework"
	"github.com/kubeclient/client-go/testenv"
)

var controlPlane *framework.ControlPlane

// uncachedResource is served by kube-apiserver straight from etcd.
const uncachedResource = "podtemplates"

func TestMain(m *testing.M) {
	framework.RunMainWithOptions(m, &controlPlane, testenv.Options{
		APIServerArgs: []string{
			"--feature-gates=ListFromCacheSnapshot=false",
			"--watch-cache-sizes=" + uncachedResource + "#0",
		},
	})
}

// newClientset returns an admin clientset that sends and accepts only
// contentType; when log is not nil it records the wire content types.
func newClientset(t *testing.T, contentType string, log *framework.WireLog) *kubernetes.Clientset {
	t.Helper()
	cfg := controlPlane.AdminConfig()
	cfg.ContentType = contentType
	cfg.AcceptContentTypes = contentType
	if log != nil {
		log.Attach(cfg)
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatalf("NewForConfig: %v", err)
	}
	return cs
}
