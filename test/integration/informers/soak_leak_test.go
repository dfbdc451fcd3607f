package informers

import (
	"bytes"
	"context"
	"runtime"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// libraryGoroutines returns the stacks of goroutines running code of the
// library (or of the fault proxy), other than the test's own goroutine,
// TestMain's and those testenv keeps for its servers. Idle HTTP
// connections of clients that are no longer used belong to net/http and
// are not counted.
func libraryGoroutines() []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var out []string
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		stack := string(g)
		if !strings.Contains(stack, "github.com/kubeclient/client-go/") ||
			strings.Contains(stack, "testing.tRunner") || strings.Contains(stack, "testing.(*M).Run") ||
			strings.Contains(stack, "github.com/kubeclient/client-go/testenv.") {
			continue
		}
		out = append(out, stack)
	}
	return out
}

// waitLibraryGoroutines polls until at most baseline library goroutines
// run, for up to timeout, and returns those running at the end when there
// are more.
func waitLibraryGoroutines(baseline int, timeout time.Duration) []string {
	var left []string
	wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, timeout, true, func(context.Context) (bool, error) {
		left = libraryGoroutines()
		return len(left) <= baseline, nil
	})
	if len(left) <= baseline {
		return nil
	}
	return left
}
