package cachesafety

import (
	"flag"
	"fmt"
	"os"
	"testing"
)

// long enlarges every test to the sizes of issue 25.
var long = flag.Bool("cachesafety.long", false, "run the cache safety tests at the sizes of issue 25 (2,000 pods, 20,000 events, a long random sequence)")

// seedFlag fixes the seed of the random document sequence; zero picks one.
var seedFlag = flag.Int64("cachesafety.seed", 0, "seed of the random document sequence (0: time-based, printed)")

// sizesFlag sets the sizes of every concurrent-reader run, for exploring.
var sizesFlag = flag.String("cachesafety.sizes", "", "pods,events,after: the sizes of every concurrent-reader run (pods listed, MODIFIED events before and after the relist)")

// sizes are the dimensions of one concurrent-reader run.
type sizes struct {
	pods      int // pods listed, in groups of groupSize
	groupSize int // pods sharing byte-identical labels and annotations
	nodes     int // nodes the pods of a group spread over
	events    int // MODIFIED events before the relist
	after     int // MODIFIED events after the relist
	pageSize  int // most items the server puts in one list page
}

// readerSizes returns the sizes of v's concurrent-reader run.
//
// The protobuf informers without a transform get more events in the
// default run: their decoders mark the objects they decoded with shared
// values in a table of 1,024 slots, and the cache shares an object whose
// mark was lost again, writing into values other cached objects hold;
// marks are lost when the watch decodes far enough ahead of the cache,
// as it does while the cache takes in a list of a thousand pods (see
// issue 25). Smaller runs miss it about one time in three.
func readerSizes(v variant) sizes {
	if *long {
		return sizes{pods: 2000, groupSize: 50, nodes: 40, events: 15000, after: 5000, pageSize: 500}
	}
	if *sizesFlag != "" {
		z := sizes{groupSize: 50, nodes: 7, pageSize: 100}
		if _, err := fmt.Sscanf(*sizesFlag, "%d,%d,%d", &z.pods, &z.events, &z.after); err == nil {
			return z
		}
	}
	if v.protobuf && !v.transform {
		return sizes{pods: 1000, groupSize: 50, nodes: 7, events: 1500, after: 500, pageSize: 100}
	}
	return sizes{pods: 150, groupSize: 50, nodes: 7, events: 300, after: 150, pageSize: 50}
}

// TestMain turns the WatchListClient feature off: the informers sync by a
// paginated LIST, the path the issue measured (the feature's environment
// variable is read once, before the first informer starts).
func TestMain(m *testing.M) {
	if err := os.Setenv("KUBE_FEATURE_WatchListClient", "false"); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}
