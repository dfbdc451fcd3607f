package clientgo

import (
	"github.com/kubeclient/client-go/bench/internal/harness"
	crdclientset "github.com/kubeclient/client-go/bench/internal/libs/clientgo/crd/clientset/versioned"
	crdinformers "github.com/kubeclient/client-go/bench/internal/libs/clientgo/crd/informers/externalversions"
)

// CronTabInformer implements harness.Lib: the generated informer of
// examples/crd's CronTab, from a clientset generated for this library
// (gencrd.sh), over JSON as a CRD is served.
func (Lib) CronTabInformer(host string) (harness.Informer, error) {
	cs, err := crdclientset.NewForConfig(config(host, false))
	if err != nil {
		return harness.Informer{}, err
	}
	f := crdinformers.NewSharedInformerFactory(cs, 0)
	return informer(f.Stable().V1().CronTabs().Informer()), nil
}
