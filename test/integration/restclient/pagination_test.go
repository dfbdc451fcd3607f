package restclient

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/kubernetes/scheme"
	"github.com/kubeclient/client-go/test/integration/framework"
	"github.com/kubeclient/client-go/tools/pager"
)

const paginationObjects = 5000

func TestPagination(t *testing.T) {
	if testing.Short() {
		t.Skip("creates 5000 objects")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ns := controlPlane.Namespace(t)
	cfg := controlPlane.AdminConfig()
	cfg.QPS, cfg.Burst = -1, 0 // no client-side throttling for the bulk load
	writer := framework.RESTClientFor(t, cfg, corev1.SchemeGroupVersion, framework.ContentTypeProtobuf)

	started := time.Now()
	const workers = 16
	names := make(chan int)
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range names {
				cm := &corev1.ConfigMap{}
				cm.Name = fmt.Sprintf("cm-%05d", i)
				cm.Data = map[string]string{"i": fmt.Sprint(i)}
				if err := writer.Post().Namespace(ns).Resource("configmaps").Body(cm).Do(ctx).Error(); err != nil {
					errs <- fmt.Errorf("creating %s: %w", cm.Name, err)
					return
				}
			}
		}()
	}
feed:
	for i := range paginationObjects {
		select {
		case names <- i:
		case err := <-errs:
			t.Error(err)
			break feed
		}
	}
	close(names)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		t.FailNow()
	}
	t.Logf("created %d ConfigMaps in %v", paginationObjects, time.Since(started).Round(time.Millisecond))

	for _, contentType := range framework.ContentTypes {
		client := framework.RESTClientFor(t, cfg, corev1.SchemeGroupVersion, contentType)
		listPage := func(ctx context.Context, opts metav1.ListOptions) (*corev1.ConfigMapList, error) {
			list := &corev1.ConfigMapList{}
			err := client.Get().Namespace(ns).Resource("configmaps").
				VersionedParams(&opts, scheme.ParameterCodec).Do(ctx).Into(list)
			return list, err
		}

		t.Run(contentType+"/limit-continue", func(t *testing.T) {
			seen := make(map[string]bool, paginationObjects)
			opts := metav1.ListOptions{Limit: 1000}
			pages := 0
			var firstRV string
			for {
				page, err := listPage(ctx, opts)
				if err != nil {
					t.Fatalf("page %d: %v", pages, err)
				}
				pages++
				if pages == 1 {
					firstRV = page.ResourceVersion
					if page.RemainingItemCount == nil || *page.RemainingItemCount != paginationObjects-1000 {
						t.Errorf("first page remainingItemCount %v, want %d", page.RemainingItemCount, paginationObjects-1000)
					}
				} else if page.ResourceVersion != firstRV {
					t.Errorf("page %d has resourceVersion %q, want the snapshot %q", pages, page.ResourceVersion, firstRV)
				}
				if len(page.Items) > 1000 {
					t.Errorf("page %d has %d items, limit was 1000", pages, len(page.Items))
				}
				for _, cm := range page.Items {
					if seen[cm.Name] {
						t.Errorf("%s listed twice", cm.Name)
					}
					seen[cm.Name] = true
				}
				if page.Continue == "" {
					break
				}
				opts.Continue = page.Continue
			}
			if pages != paginationObjects/1000 || len(seen) != paginationObjects {
				t.Errorf("got %d pages and %d objects, want %d and %d", pages, len(seen), paginationObjects/1000, paginationObjects)
			}
		})

		t.Run(contentType+"/pager", func(t *testing.T) {
			var mu sync.Mutex
			calls := 0
			p := pager.New(func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
				mu.Lock()
				calls++
				mu.Unlock()
				if opts.Limit != 700 {
					t.Errorf("pager asked for limit %d, want 700", opts.Limit)
				}
				return listPage(ctx, opts)
			})
			p.PageSize = 700
			obj, paginated, err := p.List(ctx, metav1.ListOptions{})
			if err != nil {
				t.Fatalf("List: %v", err)
			}
			items, err := meta.ExtractList(obj)
			if err != nil {
				t.Fatalf("ExtractList(%T): %v", obj, err)
			}
			wantCalls := (paginationObjects + 699) / 700
			if !paginated || len(items) != paginationObjects || calls != wantCalls {
				t.Errorf("List: paginated=%v items=%d calls=%d, want true %d %d", paginated, len(items), calls, paginationObjects, wantCalls)
			}

			count := 0
			err = p.EachListItem(ctx, metav1.ListOptions{}, func(obj runtime.Object) error {
				if _, ok := obj.(*corev1.ConfigMap); !ok {
					return fmt.Errorf("item is %T", obj)
				}
				count++
				return nil
			})
			if err != nil || count != paginationObjects {
				t.Errorf("EachListItem: %d items, %v; want %d", count, err, paginationObjects)
			}
		})
	}
}
