package protodecode

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// spreadPodsSA returns n pods of one ReplicaSet: in runs of 25 on one
// node, or spread over nodes; with one service account volume name, or
// each with its own kube-api-access-<suffix> volume (the service account
// admission names them so).
func spreadPodsSA(n int, spread, sa bool) *corev1.PodList {
	list := &corev1.PodList{}
	for i := range n {
		p := wiretest.Pod(fmt.Sprintf("web-5d8f7c9b6-%05d", i))
		p.Spec.NodeName = fmt.Sprintf("node-%03d", i/25)
		if spread {
			p.Spec.NodeName = fmt.Sprintf("node-%03d", i*7%97)
		}
		if sa {
			volume := fmt.Sprintf("kube-api-access-%05x", i*7919%0xfffff)
			p.Spec.Volumes[0].Name = volume
			for c := range p.Spec.Containers {
				p.Spec.Containers[c].VolumeMounts[0].Name = volume
			}
		}
		p.Status.PodIP = fmt.Sprintf("10.244.%d.%d", i/250, i%250)
		list.Items = append(list.Items, *p)
	}
	return list
}

// BenchmarkPodListSharing decodes a list of 500 pods as an informer's
// sync does (a new list each time, one DecodeSharing throughout) and as
// the reference does, on pods clustered on nodes and spread over them.
func BenchmarkPodListSharing(b *testing.B) {
	for _, fixture := range []struct {
		name        string
		spread, own bool
	}{{"clustered", false, false}, {"spread", true, false}, {"spread-own-volumes", true, true}} {
		data, err := spreadPodsSA(500, fixture.spread, fixture.own).Marshal()
		if err != nil {
			b.Fatal(err)
		}
		name := fixture.name
		b.Run(name+"/reference", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var list corev1.PodList
				if err := list.Unmarshal(data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/private", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				list := &corev1.PodList{}
				if handled, err := Into(data, list); !handled || err != nil {
					b.Fatal(handled, err)
				}
			}
		})
		b.Run(name+"/first-sync", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				list := &corev1.PodList{}
				if handled, err := IntoSharing(data, list, newShare(), true); !handled || err != nil {
					b.Fatal(handled, err)
				}
			}
		})
		b.Run(name+"/relist", func(b *testing.B) {
			b.ReportAllocs()
			share := newShare()
			keep := make([]*corev1.PodList, 0, 4)
			for b.Loop() {
				list := &corev1.PodList{}
				if handled, err := IntoSharing(data, list, share, true); !handled || err != nil {
					b.Fatal(handled, err)
				}
				// A cache keeps the previous objects alive.
				if len(keep) == cap(keep) {
					keep = keep[1:]
				}
				keep = append(keep, list)
			}
		})
	}
}
