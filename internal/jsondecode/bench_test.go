package jsondecode

import (
	"bytes"
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// BenchmarkDecodePod decodes a Deployment-owned pod as a kube-apiserver
// sends it (7 KB, managedFields of two managers, conditions and container
// statuses) with the reference decoder and with Into.
func BenchmarkDecodePod(b *testing.B) {
	data, err := os.ReadFile("testdata/pod.json")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("reference", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		start := cpuTime()
		for b.Loop() {
			var pod corev1.Pod
			if err := reference(data, &pod); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, start)
	})
	b.Run("into", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		start := cpuTime()
		for b.Loop() {
			var pod corev1.Pod
			if handled, err := Into(data, &pod); !handled || err != nil {
				b.Fatal(handled, err)
			}
		}
		reportCPU(b, start)
	})
}

// BenchmarkDecodePodList decodes a list of 200 such pods.
func BenchmarkDecodePodList(b *testing.B) {
	pod, err := os.ReadFile("testdata/pod.json")
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	buf.WriteString(`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"48213400"},"items":[`)
	for i := range 200 {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(bytes.Replace(pod, []byte("x2k9q"), fmt.Appendf(nil, "%05d", i), 1))
	}
	buf.WriteString(`]}`)
	data := buf.Bytes()
	for _, c := range []struct {
		name   string
		decode func([]byte, *corev1.PodList) error
	}{
		{"reference", func(d []byte, l *corev1.PodList) error { return reference(d, l) }},
		{"into", func(d []byte, l *corev1.PodList) error { _, err := Into(d, l); return err }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				var list corev1.PodList
				if err := c.decode(data, &list); err != nil || len(list.Items) != 200 {
					b.Fatal(err)
				}
			}
			reportCPU(b, start)
		})
	}
}

// cpuTime is the process's user and system CPU time: on a shared machine
// it measures the work done, where ns/op also counts time spent waiting
// for a core. It includes the garbage collector's work on other threads.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}
