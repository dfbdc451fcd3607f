package main

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kubeclient/client-go/kubernetes/fake"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestHandOver runs two candidates against one fake clientset: the first
// leads, and when it is cancelled it releases the lease and the second takes
// over.
func TestHandOver(t *testing.T) {
	client := fake.NewClientset()
	fast := timing{lease: 2 * time.Second, renew: time.Second, retry: 50 * time.Millisecond}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	var out lockedBuffer
	leading := make(chan string, 2)
	lead := func(id string) func(context.Context, io.Writer) {
		return func(ctx context.Context, _ io.Writer) {
			leading <- id
			<-ctx.Done()
		}
	}

	firstCtx, stopFirst := context.WithCancel(ctx)
	firstDone := make(chan error, 1)
	go func() { firstDone <- campaign(firstCtx, client, "ns", "lock", "first", fast, &out, lead("first")) }()
	if got := <-leading; got != "first" {
		t.Fatalf("first leader = %q, want first", got)
	}

	secondDone := make(chan error, 1)
	go func() { secondDone <- campaign(ctx, client, "ns", "lock", "second", fast, &out, lead("second")) }()
	// The second candidate must see the first as leader before it takes over.
	err := wait.PollUntilContextCancel(ctx, 10*time.Millisecond, true, func(context.Context) (bool, error) {
		return strings.Contains(out.String(), "second: first is the leader"), nil
	})
	if err != nil {
		t.Fatalf("second never observed the first leader:\n%s", out.String())
	}

	lease, err := client.CoordinationV1().Leases("ns").Get(ctx, "lock", metav1.GetOptions{})
	if err != nil || lease.Spec.HolderIdentity == nil || *lease.Spec.HolderIdentity != "first" {
		t.Fatalf("lease = %+v, %v; want held by first", lease, err)
	}

	stopFirst()
	if err := <-firstDone; err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-leading:
		if got != "second" {
			t.Fatalf("next leader = %q, want second", got)
		}
	case <-ctx.Done():
		t.Fatalf("second never took over:\n%s", out.String())
	}
	cancel()
	<-secondDone
	if !strings.Contains(out.String(), "first: stopped leading") {
		t.Errorf("output lacks the first candidate stepping down:\n%s", out.String())
	}
}
