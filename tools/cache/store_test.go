package cache

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestKeyFunctions(t *testing.T) {
	tests := []struct {
		name    string
		obj     interface{}
		key     string
		wantErr bool
	}{
		{"namespaced", pod("ns", "a", "", nil), "ns/a", false},
		{"cluster scoped", &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}, "n1", false},
		{"explicit key", ExplicitKey("x/y"), "x/y", false},
		{"no metadata", "just a string", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			key, err := MetaNamespaceKeyFunc(tc.obj)
			if (err != nil) != tc.wantErr || key != tc.key {
				t.Fatalf("MetaNamespaceKeyFunc = %q, %v; want %q, err=%v", key, err, tc.key, tc.wantErr)
			}
		})
	}
	tomb := DeletedFinalStateUnknown{Key: "gone/obj", Obj: nil}
	if key, err := DeletionHandlingMetaNamespaceKeyFunc(tomb); err != nil || key != "gone/obj" {
		t.Errorf("DeletionHandlingMetaNamespaceKeyFunc(tombstone) = %q, %v", key, err)
	}
	if name, err := DeletionHandlingObjectToName(tomb); err != nil || name != NewObjectName("gone", "obj") {
		t.Errorf("DeletionHandlingObjectToName(tombstone) = %v, %v", name, err)
	}
}

func TestStoreBasics(t *testing.T) {
	for name, s := range map[string]Store{
		"store":   NewStore(MetaNamespaceKeyFunc),
		"indexer": NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc}),
	} {
		t.Run(name, func(t *testing.T) {
			must := func(err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			must(s.Add(pod("a", "1", "10", nil)))
			must(s.Add(pod("a", "2", "11", nil)))
			must(s.Update(pod("a", "1", "12", nil)))
			if got := s.LastStoreSyncResourceVersion(); got != "12" {
				t.Errorf("rv after update = %q, want 12", got)
			}
			obj, ok, err := s.GetByKey("a/1")
			if err != nil || !ok || obj.(*v1.Pod).ResourceVersion != "12" {
				t.Fatalf("GetByKey = %v %v %v", obj, ok, err)
			}
			must(s.Delete(pod("a", "2", "13", nil)))
			if _, ok, _ := s.Get(pod("a", "2", "", nil)); ok {
				t.Error("deleted object still present")
			}
			if got := s.LastStoreSyncResourceVersion(); got != "13" {
				t.Errorf("rv after delete = %q, want 13", got)
			}
			must(s.Replace([]interface{}{pod("b", "x", "20", nil), pod("b", "y", "21", nil)}, "25"))
			if got := sorted(s.ListKeys()); strings.Join(got, ",") != "b/x,b/y" {
				t.Errorf("keys after replace = %v", got)
			}
			if got := s.LastStoreSyncResourceVersion(); got != "25" {
				t.Errorf("rv after replace = %q, want 25", got)
			}
			s.Bookmark("30")
			if got := s.LastStoreSyncResourceVersion(); got != "30" {
				t.Errorf("rv after bookmark = %q", got)
			}
			if len(s.List()) != 2 {
				t.Errorf("List() has %d items", len(s.List()))
			}
			if err := s.Add("no meta"); err == nil {
				t.Error("adding an object without metadata should fail")
			} else {
				var ke KeyError
				if !errors.As(err, &ke) {
					t.Errorf("error %v is not a KeyError", err)
				}
			}
		})
	}
}

func TestStoreTransformer(t *testing.T) {
	strip := func(obj interface{}) (interface{}, error) {
		p := obj.(*v1.Pod).DeepCopy()
		p.Labels = nil
		return p, nil
	}
	s := NewStore(MetaNamespaceKeyFunc, WithTransformer(strip))
	if err := s.Add(pod("a", "b", "1", map[string]string{"x": "y"})); err != nil {
		t.Fatal(err)
	}
	obj, _, _ := s.GetByKey("a/b")
	if obj.(*v1.Pod).Labels != nil {
		t.Error("transformer not applied on Add")
	}
	if err := s.Replace([]interface{}{pod("a", "c", "2", map[string]string{"x": "y"})}, "2"); err != nil {
		t.Fatal(err)
	}
	obj, _, _ = s.GetByKey("a/c")
	if obj.(*v1.Pod).Labels != nil {
		t.Error("transformer not applied on Replace")
	}
}

func TestCacheTransactionReportsBadObjects(t *testing.T) {
	s := NewStore(MetaNamespaceKeyFunc).(TransactionStore)
	err := s.Transaction(
		Transaction{Object: pod("a", "b", "1", nil), Type: TransactionTypeAdd},
		Transaction{Object: 17, Type: TransactionTypeAdd},
	)
	if err == nil || len(err.SuccessfulIndices) != 1 || err.SuccessfulIndices[0] != 0 || err.TotalTransactions != 2 {
		t.Fatalf("TransactionError = %+v", err)
	}
	if !strings.Contains(err.Error(), "1 of 2") {
		t.Errorf("Error() = %q", err.Error())
	}
}

func TestStoreTransformerRunsAfterKeying(t *testing.T) {
	errTransform := errors.New("transform failed")
	// rename moves the object to another name, so the stored key tells
	// whether the key was computed before or after the transform.
	rename := func(obj interface{}) (interface{}, error) {
		p := obj.(*v1.Pod).DeepCopy()
		if p.Name == "fail" {
			return nil, errTransform
		}
		p.Name = "renamed-" + p.Name
		return p, nil
	}
	tests := []struct {
		name    string
		op      func(Store) error
		wantKey string
		wantErr error
	}{
		{name: "Add", op: func(s Store) error { return s.Add(pod("ns", "a", "1", nil)) }, wantKey: "ns/a"},
		{name: "Update", op: func(s Store) error { return s.Update(pod("ns", "a", "1", nil)) }, wantKey: "ns/a"},
		{name: "Replace", op: func(s Store) error { return s.Replace([]interface{}{pod("ns", "a", "1", nil)}, "1") }, wantKey: "ns/a"},
		{name: "Add error", op: func(s Store) error { return s.Add(pod("ns", "fail", "1", nil)) }, wantErr: errTransform},
		{name: "Replace error", op: func(s Store) error { return s.Replace([]interface{}{pod("ns", "fail", "1", nil)}, "1") }, wantErr: errTransform},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := NewStore(MetaNamespaceKeyFunc, WithTransformer(rename))
			err := tc.op(s)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) || !strings.HasPrefix(err.Error(), "transforming: ") {
					t.Fatalf("error = %v, want a wrapped %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			obj, exists, _ := s.GetByKey(tc.wantKey)
			if !exists {
				t.Fatalf("nothing stored under %q; keys %v", tc.wantKey, s.ListKeys())
			}
			if name := obj.(*v1.Pod).Name; name != "renamed-a" {
				t.Errorf("stored object %q was not transformed", name)
			}
		})
	}
}

func TestStoreTransaction(t *testing.T) {
	transformed := 0
	failKey := func(obj interface{}) (string, error) {
		if obj.(*v1.Pod).Name == "bad" {
			return "", errors.New("no key")
		}
		return MetaNamespaceKeyFunc(obj)
	}
	tests := []struct {
		name        string
		objs        []*v1.Pod
		wantIndices []int // nil: no error expected
		wantKeys    string
	}{
		{name: "all succeed", objs: []*v1.Pod{pod("ns", "a", "1", nil)}, wantKeys: "[ns/a]"},
		{name: "all fail", objs: []*v1.Pod{pod("ns", "bad", "1", nil), pod("ns", "bad", "2", nil)}, wantIndices: []int{}, wantKeys: "[]"},
		{name: "some fail", objs: []*v1.Pod{pod("ns", "bad", "1", nil), pod("ns", "b", "2", nil)}, wantIndices: []int{1}, wantKeys: "[ns/b]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := NewStore(failKey, WithTransformer(func(obj interface{}) (interface{}, error) {
				transformed++
				return obj, nil
			}))
			var txns []Transaction
			for _, p := range tc.objs {
				txns = append(txns, Transaction{Object: p, Type: TransactionTypeAdd})
			}
			txErr := s.(TransactionStore).Transaction(txns...)
			switch {
			case tc.wantIndices == nil && txErr != nil:
				t.Fatalf("unexpected error %v", txErr)
			case tc.wantIndices != nil && txErr == nil:
				t.Fatal("expected a TransactionError")
			case tc.wantIndices != nil:
				if txErr.SuccessfulIndices == nil || fmt.Sprint(txErr.SuccessfulIndices) != fmt.Sprint(tc.wantIndices) {
					t.Errorf("SuccessfulIndices = %#v, want %#v", txErr.SuccessfulIndices, tc.wantIndices)
				}
				if txErr.TotalTransactions != len(tc.objs) {
					t.Errorf("TotalTransactions = %d, want %d", txErr.TotalTransactions, len(tc.objs))
				}
			}
			if keys := fmt.Sprint(sorted(s.ListKeys())); keys != tc.wantKeys {
				t.Errorf("keys = %s, want %s", keys, tc.wantKeys)
			}
			if transformed != 0 {
				t.Errorf("Transaction called the transformer %d times", transformed)
			}
		})
	}
}

func TestDeletedObjectTombstone(t *testing.T) {
	d, ok := toDeletedObject[*v1.Pod](DeletedFinalStateUnknown{Key: "ns/x"})
	if !ok || d.OptionalObj != nil || d.GetKey() != "ns/x" || d.GetObjectName() != NewObjectName("ns", "x") {
		t.Errorf("tombstone conversion: %+v", d)
	}
	d, _ = toDeletedObject[*v1.Pod](DeletedFinalStateUnknown{Key: "a/b/c"})
	if d.GetName() != "a/b/c" {
		t.Errorf("invalid key must become the name, got %q", d.GetName())
	}
}

// TestStoreMetrics: a named store publishes every numeric resource version
// it records; an unnamed one, or one without a provider, publishes nothing.
func TestStoreMetrics(t *testing.T) {
	ResetInformerNamesForTesting()
	defer ResetInformerNamesForTesting()
	name, err := NewInformerName("store-metrics")
	if err != nil {
		t.Fatal(err)
	}
	named := name.WithResource(schema.GroupVersionResource{Resource: "pods"})
	for _, tc := range []struct {
		name     string
		id       InformerNameAndResource
		provider bool
		want     []float64
	}{
		{"named", named, true, []float64{3, 4, 5, 7}},
		{"unnamed", InformerNameAndResource{}, true, nil},
		{"no provider", named, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gauges := &rvGauges{}
			var provider InformerMetricsProvider
			if tc.provider {
				provider = gauges
			}
			store := NewStore(MetaNamespaceKeyFunc, WithStoreMetrics(tc.id, provider))
			_ = store.Add(pod("ns", "a", "3", nil))
			_ = store.Update(pod("ns", "a", "4", nil))
			_ = store.Delete(pod("ns", "a", "5", nil))
			store.Bookmark("not a number")
			_ = store.Replace(nil, "7")
			if !reflect.DeepEqual(gauges.values, tc.want) {
				t.Errorf("gauge values %v, want %v", gauges.values, tc.want)
			}
			if rv := store.LastStoreSyncResourceVersion(); rv != "7" {
				t.Errorf("resource version %q", rv)
			}
		})
	}
}

func TestKeyErrorUnwraps(t *testing.T) {
	cause := errors.New("no name")
	err := error(KeyError{Obj: "x", Err: cause})
	if !errors.Is(err, cause) {
		t.Error("KeyError does not unwrap to its cause")
	}
	if want := "couldn't create key for object x: no name"; err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}
}
