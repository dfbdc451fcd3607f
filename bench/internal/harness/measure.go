package harness

import (
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"sync"
	"syscall"
	"time"
)

// snapshot is the process's resource use at one moment.
type snapshot struct {
	wall       time.Time
	cpu        time.Duration // user + system
	mallocs    uint64
	totalAlloc uint64
}

func take() snapshot {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return snapshot{
		wall:       time.Now(),
		cpu:        time.Duration(ru.Utime.Nano() + ru.Stime.Nano()),
		mallocs:    ms.Mallocs,
		totalAlloc: ms.TotalAlloc,
	}
}

// delta is the resource use between two snapshots.
type delta struct {
	wall, cpu     time.Duration
	allocs, bytes float64
}

func since(a snapshot) delta {
	b := take()
	return delta{wall: b.wall.Sub(a.wall), cpu: b.cpu - a.cpu, allocs: float64(b.mallocs - a.mallocs), bytes: float64(b.totalAlloc - a.totalAlloc)}
}

// liveHeap is the heap in use after two full collections.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

const heapObjects = "/memory/classes/heap/objects:bytes"

// peakSampler records the largest heap (live and not yet swept objects)
// seen every millisecond, without stopping the world.
type peakSampler struct {
	stop chan struct{}
	wg   sync.WaitGroup
	peak uint64
}

func startPeak() *peakSampler {
	p := &peakSampler{stop: make(chan struct{})}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		s := []metrics.Sample{{Name: heapObjects}}
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > p.peak {
				p.peak = v
			}
			select {
			case <-p.stop:
				return
			case <-t.C:
			}
		}
	}()
	return p
}

// end stops sampling and returns the peak.
func (p *peakSampler) end() uint64 {
	close(p.stop)
	p.wg.Wait()
	return p.peak
}

// HeapProfile, if set, is where the informer workloads write a heap
// profile of the live heap with the cache full, right after the sync.
var HeapProfile string

func writeHeapProfile() error {
	if HeapProfile == "" {
		return nil
	}
	f, err := os.Create(HeapProfile)
	if err != nil {
		return err
	}
	defer f.Close()
	return pprof.Lookup("heap").WriteTo(f, 0)
}
