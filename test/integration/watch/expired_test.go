package watch

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/test/integration/framework"
	"github.com/kubeclient/client-go/tools/pager"
)

// resourceClient is the part of a typed client the 410 tests use, so that
// they run against a cached and an uncached resource alike. Objects carry
// their value in a label "v".
type resourceClient struct {
	resource string
	create   func(ctx context.Context, name, value string) (string, error)
	update   func(ctx context.Context, name, value string) (string, error)
	list     func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error)
	watch    func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
}

// configMapClient adapts the typed ConfigMaps client of namespace ns.
func configMapClient(cs *kubernetes.Clientset, ns string) resourceClient {
	c := cs.CoreV1().ConfigMaps(ns)
	meta := func(name, value string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Name: name, Labels: map[string]string{"v": value}}
	}
	return resourceClient{
		resource: "configmaps",
		create: func(ctx context.Context, name, value string) (string, error) {
			obj, err := c.Create(ctx, &corev1.ConfigMap{ObjectMeta: meta(name, value)}, metav1.CreateOptions{})
			if err != nil {
				return "", err
			}
			return obj.ResourceVersion, nil
		},
		update: func(ctx context.Context, name, value string) (string, error) {
			obj, err := c.Update(ctx, &corev1.ConfigMap{ObjectMeta: meta(name, value)}, metav1.UpdateOptions{})
			if err != nil {
				return "", err
			}
			return obj.ResourceVersion, nil
		},
		list: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			return c.List(ctx, opts)
		},
		watch: c.Watch,
	}
}

// podTemplateClient adapts the typed PodTemplates client of namespace ns;
// kube-apiserver serves PodTemplates without its watch cache here.
func podTemplateClient(cs *kubernetes.Clientset, ns string) resourceClient {
	c := cs.CoreV1().PodTemplates(ns)
	template := func(name, value string) *corev1.PodTemplate {
		return &corev1.PodTemplate{
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"v": value}},
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				Containers: []corev1.Container{{Name: "c", Image: "busybox"}},
			}},
		}
	}
	return resourceClient{
		resource: uncachedResource,
		create: func(ctx context.Context, name, value string) (string, error) {
			obj, err := c.Create(ctx, template(name, value), metav1.CreateOptions{})
			if err != nil {
				return "", err
			}
			return obj.ResourceVersion, nil
		},
		update: func(ctx context.Context, name, value string) (string, error) {
			obj, err := c.Update(ctx, template(name, value), metav1.UpdateOptions{})
			if err != nil {
				return "", err
			}
			return obj.ResourceVersion, nil
		},
		list: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			return c.List(ctx, opts)
		},
		watch: c.Watch,
	}
}

// resourceClients returns a client for a resource kube-apiserver caches
// (configmaps; served from etcd for continue and Exact requests because
// ListFromCacheSnapshot is off) and one it does not cache (podtemplates).
func resourceClients(t *testing.T, contentType, ns string) []resourceClient {
	cs := newClientset(t, contentType, nil)
	return []resourceClient{configMapClient(cs, ns), podTemplateClient(cs, ns)}
}

// compactNow compacts etcd at its current revision, which is newer than
// every resourceVersion handed out so far, and returns that revision.
func compactNow(ctx context.Context, t *testing.T) int64 {
	t.Helper()
	rev, err := compactEtcdNow(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return rev
}

// compactEtcdNow is compactNow for goroutines other than the test's.
func compactEtcdNow(ctx context.Context) (int64, error) {
	rev, err := controlPlane.EtcdRevision(ctx)
	if err != nil {
		return 0, fmt.Errorf("EtcdRevision: %w", err)
	}
	if err := controlPlane.CompactEtcd(ctx, rev); err != nil {
		return 0, fmt.Errorf("CompactEtcd(%d): %w", rev, err)
	}
	return rev, nil
}

// createObjects creates obj-00 ... obj-<n-1> with client.
func createObjects(ctx context.Context, t *testing.T, client resourceClient, n int) []string {
	t.Helper()
	var created []string
	for i := range n {
		name := fmt.Sprintf("obj-%02d", i)
		if _, err := client.create(ctx, name, "0"); err != nil {
			t.Fatalf("create %s %s: %v", client.resource, name, err)
		}
		created = append(created, name)
	}
	return created
}

// checkExpired fails t unless err is a 410 that the errors package calls
// Expired (or Gone), and returns its Status.
func checkExpired(t *testing.T, what string, err error) metav1.Status {
	t.Helper()
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		t.Fatalf("%s: %v (%T), want a 410 StatusError", what, err, err)
	}
	if !apierrors.IsResourceExpired(err) && !apierrors.IsGone(err) {
		t.Errorf("%s: %v (reason %q), want Expired or Gone", what, err, apierrors.ReasonForError(err))
	}
	if s := status.Status(); s.Code != http.StatusGone {
		t.Errorf("%s: code %d, want 410", what, s.Code)
	}
	return status.Status()
}

// etcdRangeError reads key "/" from etcd at revision through the JSON
// gateway and returns etcd's error message ("" when the read worked).
func etcdRangeError(ctx context.Context, t *testing.T, revision int64) string {
	t.Helper()
	body, _ := json.Marshal(map[string]any{
		"key":        base64.StdEncoding.EncodeToString([]byte("/")),
		"revision":   strconv.FormatInt(revision, 10),
		"count_only": true,
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, controlPlane.EtcdURL+"/v3/kv/range", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("etcd range at %d: %v", revision, err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusOK {
		return ""
	}
	return string(answer)
}

// TestEtcdCompaction checks the helpers the 410 tests rely on: EtcdRevision
// follows kube-apiserver's resourceVersions, and after CompactEtcd(rev) etcd
// refuses reads before rev and still serves rev.
func TestEtcdCompaction(t *testing.T) {
	framework.DumpLogsOnFailure(t, controlPlane)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client := configMapClient(newClientset(t, framework.ContentTypeJSON, nil), controlPlane.Namespace(t))
	created, err := client.create(ctx, "a", "1")
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	rev := compactNow(ctx, t)
	if rev < rv(t, created) {
		t.Fatalf("etcd revision %d is older than resourceVersion %s", rev, created)
	}
	if msg := etcdRangeError(ctx, t, rev-1); !strings.Contains(msg, "compacted") {
		t.Errorf("etcd read at %d after compacting at %d: %q, want a compacted error", rev-1, rev, msg)
	}
	if msg := etcdRangeError(ctx, t, rev); msg != "" {
		t.Errorf("etcd read at the compaction revision %d: %s", rev, msg)
	}
	if err := controlPlane.CompactEtcd(ctx, rev-1); err == nil || !strings.Contains(err.Error(), "compacted") {
		t.Errorf("compacting again at %d: %v, want a compacted error", rev-1, err)
	}
}

// TestExpiredContinueToken lists a first page, compacts etcd past the
// list's resourceVersion and continues: the server answers 410 Expired with
// a fresh "inconsistent continue" token in the Status, and that token lists
// the rest (including an object created after the first page) at a newer
// resourceVersion.
func TestExpiredContinueToken(t *testing.T) {
	for _, contentType := range framework.ContentTypes {
		t.Run(contentType, func(t *testing.T) {
			framework.DumpLogsOnFailure(t, controlPlane)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			for _, client := range resourceClients(t, contentType, controlPlane.Namespace(t)) {
				all := createObjects(ctx, t, client, 10)
				first, err := client.list(ctx, metav1.ListOptions{Limit: 4})
				if err != nil {
					t.Fatalf("%s: first page: %v", client.resource, err)
				}
				firstMeta := first.(metav1.ListInterface)
				if got := names(t, first); !slices.Equal(got, all[:4]) || firstMeta.GetContinue() == "" {
					t.Fatalf("%s: first page %v (continue %q), want %v and a continue token", client.resource, got, firstMeta.GetContinue(), all[:4])
				}
				if _, err := client.create(ctx, "obj-10", "0"); err != nil {
					t.Fatalf("%s: create obj-10: %v", client.resource, err)
				}
				all = append(all, "obj-10")
				compacted := compactNow(ctx, t)

				_, err = client.list(ctx, metav1.ListOptions{Limit: 4, Continue: firstMeta.GetContinue()})
				status := checkExpired(t, client.resource+": continue after compaction", err)
				if !strings.Contains(status.Message, "continue parameter is too old") || status.Continue == "" {
					t.Fatalf("%s: Status %+v, want the 'inconsistent continue' message and token", client.resource, status)
				}

				// The inconsistent token resumes after the first page's last
				// key, at the current revision.
				var rest []string
				for token := status.Continue; token != ""; {
					page, err := client.list(ctx, metav1.ListOptions{Limit: 4, Continue: token})
					if err != nil {
						t.Fatalf("%s: continuing with the inconsistent token: %v", client.resource, err)
					}
					rest = append(rest, names(t, page)...)
					if pageRV := rv(t, page.(metav1.ListInterface).GetResourceVersion()); pageRV < compacted {
						t.Errorf("%s: page at resourceVersion %d, older than the compaction at %d", client.resource, pageRV, compacted)
					}
					token = page.(metav1.ListInterface).GetContinue()
				}
				if !slices.Equal(rest, all[4:]) {
					t.Errorf("%s: pages after the inconsistent token: %v, want %v", client.resource, rest, all[4:])
				}
			}
		})
	}
}

// TestPagerAfterExpiredContinue compacts etcd between a pager's first and
// second page. With FullListIfExpired (the default) ListPager.List falls
// back to one unpaginated list and returns every object; without it, and
// in EachListItem, the Expired error comes back.
func TestPagerAfterExpiredContinue(t *testing.T) {
	framework.DumpLogsOnFailure(t, controlPlane)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, client := range resourceClients(t, framework.ContentTypeProtobuf, controlPlane.Namespace(t)) {
		all := createObjects(ctx, t, client, 10)
		var mu sync.Mutex // guards calls
		var calls []metav1.ListOptions
		// pageFn compacts etcd, after one more write, before each
		// continuation request.
		pageFn := func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			mu.Lock()
			calls = append(calls, opts)
			mu.Unlock()
			if opts.Continue != "" {
				name := fmt.Sprintf("obj-%02d", len(all))
				if _, err := client.create(ctx, name, "0"); err != nil {
					return nil, err
				}
				all = append(all, name)
				if _, err := compactEtcdNow(ctx); err != nil {
					return nil, err
				}
			}
			return client.list(ctx, opts)
		}

		p := pager.New(pageFn)
		p.PageSize = 4
		list, _, err := p.List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatalf("%s: ListPager.List: %v", client.resource, err)
		}
		if got := names(t, list); !slices.Equal(got, all) {
			t.Errorf("%s: ListPager.List returned %v, want every object %v", client.resource, got, all)
		}
		if len(calls) != 3 || calls[0].Limit != 4 || calls[0].Continue != "" ||
			calls[1].Limit != 4 || calls[1].Continue == "" || calls[2].Limit != 0 || calls[2].Continue != "" {
			t.Errorf("%s: page requests %+v, want a first page, an expired continuation, a full list", client.resource, calls)
		}

		calls = nil
		p.FullListIfExpired = false
		_, _, err = p.List(ctx, metav1.ListOptions{})
		checkExpired(t, client.resource+": List without FullListIfExpired", err)
		if len(calls) != 2 {
			t.Errorf("%s: %d page requests without FullListIfExpired, want 2", client.resource, len(calls))
		}

		var seen []string
		err = p.EachListItem(ctx, metav1.ListOptions{}, func(obj runtime.Object) error {
			seen = append(seen, obj.(metav1.Object).GetName())
			return nil
		})
		checkExpired(t, client.resource+": EachListItem", err)
		if !slices.Equal(seen, all[:4]) {
			t.Errorf("%s: EachListItem saw %v before the error, want the first page %v", client.resource, seen, all[:4])
		}
	}
}

// TestWatchFromCompactedResourceVersion watches an uncached resource (an
// etcd watch) from a compacted resourceVersion: the watch fails with 410
// Expired, as an error or as an ERROR event before the result channel
// closes. A watch from the compaction revision itself still works.
func TestWatchFromCompactedResourceVersion(t *testing.T) {
	for _, contentType := range framework.ContentTypes {
		t.Run(contentType, func(t *testing.T) {
			framework.DumpLogsOnFailure(t, controlPlane)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			client := podTemplateClient(newClientset(t, contentType, nil), controlPlane.Namespace(t))
			old, err := client.create(ctx, "pt", "1")
			if err != nil {
				t.Fatalf("create: %v", err)
			}
			for _, v := range []string{"2", "3"} {
				if _, err := client.update(ctx, "pt", v); err != nil {
					t.Fatalf("update: %v", err)
				}
			}
			compacted := compactNow(ctx, t)

			w, err := client.watch(ctx, metav1.ListOptions{ResourceVersion: old})
			if err != nil {
				checkExpired(t, "Watch from "+old, err)
			} else {
				ev, ok := next(ctx, t, w, 10*time.Second)
				if !ok {
					t.Fatalf("watch from compacted %s closed without an event", old)
				}
				if ev.Type != watch.Error {
					t.Fatalf("watch from compacted %s: %s %#v, want an ERROR event", old, ev.Type, ev.Object)
				}
				checkExpired(t, "ERROR event", apierrors.FromObject(ev.Object))
				if rest := waitClosed(t, w, 10*time.Second); len(rest) != 0 {
					t.Errorf("events after the ERROR: %v", rest)
				}
			}

			w, err = client.watch(ctx, metav1.ListOptions{ResourceVersion: strconv.FormatInt(compacted, 10)})
			if err != nil {
				t.Fatalf("Watch from the compaction revision %d: %v", compacted, err)
			}
			defer w.Stop()
			updated, err := client.update(ctx, "pt", "4")
			if err != nil {
				t.Fatalf("update: %v", err)
			}
			ev, ok := next(ctx, t, w, 10*time.Second)
			if !ok || ev.Type != watch.Modified {
				t.Fatalf("watch from %d: %s %#v (open %v), want MODIFIED", compacted, ev.Type, ev.Object, ok)
			}
			if pt := ev.Object.(*corev1.PodTemplate); pt.ResourceVersion != updated || pt.Labels["v"] != "4" {
				t.Errorf("MODIFIED at %s v=%s, want %s v=4", pt.ResourceVersion, pt.Labels["v"], updated)
			}
		})
	}
}

// TestExactListAtCompactedResourceVersion reads one object through a list
// at an Exact resourceVersion: at a compacted revision it fails with 410
// Expired (so does the legacy limit+resourceVersion form), at the
// compaction revision it returns the state of that moment.
func TestExactListAtCompactedResourceVersion(t *testing.T) {
	framework.DumpLogsOnFailure(t, controlPlane)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, client := range resourceClients(t, framework.ContentTypeJSON, controlPlane.Namespace(t)) {
		old, err := client.create(ctx, "obj", "1")
		if err != nil {
			t.Fatalf("%s: create: %v", client.resource, err)
		}
		if _, err := client.update(ctx, "obj", "2"); err != nil {
			t.Fatalf("%s: update: %v", client.resource, err)
		}
		// The historical state is there until the compaction.
		get := func(opts metav1.ListOptions) (runtime.Object, error) {
			opts.FieldSelector = "metadata.name=obj"
			return client.list(ctx, opts)
		}
		before, err := get(metav1.ListOptions{ResourceVersion: old, ResourceVersionMatch: metav1.ResourceVersionMatchExact})
		if err != nil {
			t.Fatalf("%s: Exact list at %s before compaction: %v", client.resource, old, err)
		}
		if v := labelV(t, before); v != "1" {
			t.Errorf("%s: Exact list at %s before compaction: v=%s, want 1", client.resource, old, v)
		}

		compacted := compactNow(ctx, t)
		_, err = get(metav1.ListOptions{ResourceVersion: old, ResourceVersionMatch: metav1.ResourceVersionMatchExact})
		checkExpired(t, client.resource+": Exact list at a compacted resourceVersion", err)
		// The legacy form applies to real lists only: a list narrowed to
		// one name by metadata.name is read as a single key, where the
		// limit plays no part and the resourceVersion means NotOlderThan.
		_, err = client.list(ctx, metav1.ListOptions{ResourceVersion: old, Limit: 1})
		checkExpired(t, client.resource+": limit+resourceVersion list at a compacted resourceVersion", err)
		if _, err := get(metav1.ListOptions{ResourceVersion: old, Limit: 1}); err != nil {
			t.Errorf("%s: limit+resourceVersion list of one name at a compacted resourceVersion: %v, want the current state", client.resource, err)
		}

		at, err := get(metav1.ListOptions{ResourceVersion: strconv.FormatInt(compacted, 10), ResourceVersionMatch: metav1.ResourceVersionMatchExact})
		if err != nil {
			t.Fatalf("%s: Exact list at the compaction revision %d: %v", client.resource, compacted, err)
		}
		if v := labelV(t, at); v != "2" || at.(metav1.ListInterface).GetResourceVersion() != strconv.FormatInt(compacted, 10) {
			t.Errorf("%s: Exact list at %d: v=%s rv %s, want v=2 at %d", client.resource, compacted, v, at.(metav1.ListInterface).GetResourceVersion(), compacted)
		}
	}
}

// labelV returns the "v" label of a one-item list.
func labelV(t *testing.T, list runtime.Object) string {
	t.Helper()
	var v []string
	switch l := list.(type) {
	case *corev1.ConfigMapList:
		for _, item := range l.Items {
			v = append(v, item.Labels["v"])
		}
	case *corev1.PodTemplateList:
		for _, item := range l.Items {
			v = append(v, item.Labels["v"])
		}
	default:
		t.Fatalf("unexpected list %T", list)
	}
	if len(v) != 1 {
		t.Fatalf("%d items, want 1", len(v))
	}
	return v[0]
}
