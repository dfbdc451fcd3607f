package informergen

import (
	"strings"

	"github.com/kubeclient/client-go/cmd/codegen/internal/gofile"
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

// resourceFile writes <kind>.go: the informer interfaces, the typed
// aliases and the constructors of one resource.
func (g *generator) resourceFile(gv *model.GroupVersion, r *model.Resource) *gofile.File {
	f := gofile.New(gv.Version)
	a := map[string]string{
		"Kind":     r.Kind,
		"Plural":   r.Plural,
		"impl":     model.LowerFirst(r.Kind) + "Informer",
		"adapter":  model.LowerFirst(r.Kind) + "TypedInformerAdapter",
		"obj":      "*" + f.Import(gv.Package.Path) + "." + r.Kind,
		"zero":     "&" + f.Import(gv.Package.Path) + "." + r.Kind + "{}",
		"cache":    f.Import(g.l.Runtime("tools/cache")),
		"ii":       f.Import(g.l.Import(g.l.InternalInterfacesRel())),
		"kube":     f.Import(g.l.Import(g.l.ClientsetPath)),
		"listers":  f.Import(g.l.Import(g.l.ListerRel(gv))),
		"time":     f.Import("time"),
		"context":  f.Import("context"),
		"metav1":   f.Import("k8s.io/apimachinery/pkg/apis/meta/v1"),
		"runtime":  f.Import("k8s.io/apimachinery/pkg/runtime"),
		"schema":   f.Import("k8s.io/apimachinery/pkg/runtime/schema"),
		"watch":    f.Import("k8s.io/apimachinery/pkg/watch"),
		"group":    quote(gv.Group.Name),
		"version":  quote(gv.Version),
		"resource": quote(r.Resource),
		"client":   "client." + clientAccessor(gv) + "()." + r.Plural + "()",
		// nsParam is the namespace parameter of the constructors, nsArg the
		// argument forwarding it, nsField the factory informer's namespace.
		"nsParam": "",
		"nsArg":   "",
		"nsField": "",
	}
	if r.Namespaced {
		a["client"] = "client." + clientAccessor(gv) + "()." + r.Plural + "(namespace)"
		a["nsParam"] = " namespace string,"
		a["nsArg"] = " namespace,"
		a["nsField"] = " f.namespace,"
	}
	f.Write(expand(resourceTemplate, a))
	return f
}

func quote(s string) string { return `"` + s + `"` }

// expand replaces each ${name} of tmpl with a[name].
func expand(tmpl string, a map[string]string) string {
	pairs := make([]string, 0, 2*len(a))
	for k, v := range a {
		pairs = append(pairs, "${"+k+"}", v)
	}
	return strings.NewReplacer(pairs...).Replace(tmpl)
}

const resourceTemplate = `// ${Kind}Informer gives access to the shared informer of ${Plural} and to a
// lister reading its cache. Typed${Kind}Informer adds a type-safe informer.
type ${Kind}Informer interface {
	Informer() ${cache}.SharedIndexInformer
	Lister() ${listers}.${Kind}Lister
}

// Typed${Kind}Informer is ${Kind}Informer plus TypedInformer, the same shared
// informer with methods typed for ${obj}.
type Typed${Kind}Informer interface {
	Informer() ${cache}.SharedIndexInformer
	TypedInformer() ${Kind}IndexInformer
	Lister() ${listers}.${Kind}Lister
}

// ${Kind}IndexInformer is a shared index informer of ${Plural} whose
// handler and indexer methods are typed for ${obj}.
type ${Kind}IndexInformer ${cache}.TypedSharedIndexInformer[${obj}]

// ${Kind}HandlerFuncs is cache.TypedResourceEventHandlerFuncs for ${Plural}.
type ${Kind}HandlerFuncs = ${cache}.TypedResourceEventHandlerFuncs[${obj}]

// ${Kind}DetailedHandlerFuncs is cache.TypedResourceEventHandlerDetailedFuncs
// for ${Plural}.
type ${Kind}DetailedHandlerFuncs = ${cache}.TypedResourceEventHandlerDetailedFuncs[${obj}]

// ${Kind}FilteringHandler is cache.TypedFilteringResourceEventHandler for
// ${Plural}.
type ${Kind}FilteringHandler = ${cache}.TypedFilteringResourceEventHandler[${obj}]

// ${Kind}Indexers is cache.TypedIndexers for ${Plural}.
type ${Kind}Indexers = ${cache}.TypedIndexers[${obj}]

// Deleted${Kind} is the deleted ${Kind} a typed delete handler receives.
type Deleted${Kind} = ${cache}.DeletedObject[${obj}]

// ${impl} is the factory-backed ${Kind}Informer.
type ${impl} struct {
	factory          ${ii}.SharedInformerFactory
	tweakListOptions ${ii}.TweakListOptionsFunc
	namespace        string
}

// New${Kind}Informer returns a new, unshared informer of ${Plural}. Prefer
// the informer of a SharedInformerFactory, which shares one watch and one
// cache between all its users.
func New${Kind}Informer(client ${kube}.Interface,${nsParam} resyncPeriod ${time}.Duration, indexers ${cache}.Indexers) ${cache}.SharedIndexInformer {
	return New${Kind}InformerWithOptions(client,${nsArg} ${ii}.InformerOptions{ResyncPeriod: resyncPeriod, Indexers: indexers})
}

// NewTyped${Kind}Informer is New${Kind}Informer with typed indexers and
// a typed result.
func NewTyped${Kind}Informer(client ${kube}.Interface,${nsParam} resyncPeriod ${time}.Duration, indexers ${Kind}Indexers) ${Kind}IndexInformer {
	return NewTyped${Kind}InformerWithOptions(client,${nsArg} ${ii}.InformerOptions{ResyncPeriod: resyncPeriod, Indexers: ${cache}.TypedIndexersToIndexers(indexers)})
}

// NewFiltered${Kind}Informer is New${Kind}Informer whose list and watch
// requests are edited by tweakListOptions.
func NewFiltered${Kind}Informer(client ${kube}.Interface,${nsParam} resyncPeriod ${time}.Duration, indexers ${cache}.Indexers, tweakListOptions ${ii}.TweakListOptionsFunc) ${cache}.SharedIndexInformer {
	return New${Kind}InformerWithOptions(client,${nsArg} ${ii}.InformerOptions{ResyncPeriod: resyncPeriod, Indexers: indexers, TweakListOptions: tweakListOptions})
}

// NewTypedFiltered${Kind}Informer is NewFiltered${Kind}Informer with typed
// indexers and a typed result.
func NewTypedFiltered${Kind}Informer(client ${kube}.Interface,${nsParam} resyncPeriod ${time}.Duration, indexers ${Kind}Indexers, tweakListOptions ${ii}.TweakListOptionsFunc) ${Kind}IndexInformer {
	return NewTyped${Kind}InformerWithOptions(client,${nsArg} ${ii}.InformerOptions{ResyncPeriod: resyncPeriod, Indexers: ${cache}.TypedIndexersToIndexers(indexers), TweakListOptions: tweakListOptions})
}

// New${Kind}InformerWithOptions returns a new, unshared informer of
// ${Plural} configured by options.
func New${Kind}InformerWithOptions(client ${kube}.Interface,${nsParam} options ${ii}.InformerOptions) ${cache}.SharedIndexInformer {
	return NewTyped${Kind}InformerWithOptions(client,${nsArg} options)
}

// NewTyped${Kind}InformerWithOptions is New${Kind}InformerWithOptions with a
// typed result. List and watch go through the clientset with the context
// the informer runs with.
func NewTyped${Kind}InformerWithOptions(client ${kube}.Interface,${nsParam} options ${ii}.InformerOptions) ${Kind}IndexInformer {
	tweak := options.TweakListOptions
	listObjects := func(ctx ${context}.Context, opts ${metav1}.ListOptions) (${runtime}.Object, error) {
		if tweak != nil {
			tweak(&opts)
		}
		return ${client}.List(ctx, opts)
	}
	watchObjects := func(ctx ${context}.Context, opts ${metav1}.ListOptions) (${watch}.Interface, error) {
		if tweak != nil {
			tweak(&opts)
		}
		return ${client}.Watch(ctx, opts)
	}
	lw := &${cache}.ListWatch{
		ListFunc: func(opts ${metav1}.ListOptions) (${runtime}.Object, error) {
			return listObjects(${context}.Background(), opts)
		},
		WatchFunc: func(opts ${metav1}.ListOptions) (${watch}.Interface, error) {
			return watchObjects(${context}.Background(), opts)
		},
		ListWithContextFunc:  listObjects,
		WatchFuncWithContext: watchObjects,
	}
	gvr := ${schema}.GroupVersionResource{Group: ${group}, Version: ${version}, Resource: ${resource}}
	informer := ${cache}.NewSharedIndexInformerWithOptions(
		${cache}.ToListWatcherWithWatchListSemantics(lw, client),
		${zero},
		${cache}.SharedIndexInformerOptions{
			ResyncPeriod: options.ResyncPeriod,
			Indexers:     options.Indexers,
			Identifier:   options.InformerName.WithResource(gvr),
		},
	)
	return ${cache}.NewTypedSharedIndexInformer[${obj}](informer)
}

// newInformer builds the factory's shared informer, indexed by namespace.
func (f *${impl}) newInformer(client ${kube}.Interface, resyncPeriod ${time}.Duration) ${cache}.SharedIndexInformer {
	return NewTyped${Kind}InformerWithOptions(client,${nsField} ${ii}.InformerOptions{
		ResyncPeriod:     resyncPeriod,
		Indexers:         ${cache}.Indexers{${cache}.NamespaceIndex: ${cache}.MetaNamespaceIndexFunc},
		InformerName:     f.factory.InformerName(),
		TweakListOptions: f.tweakListOptions,
	})
}

// Informer returns the factory's shared informer of ${Plural}.
func (f *${impl}) Informer() ${cache}.SharedIndexInformer {
	return f.TypedInformer()
}

// TypedInformer returns the factory's shared informer of ${Plural} with
// typed methods.
func (f *${impl}) TypedInformer() ${Kind}IndexInformer {
	return ${cache}.NewTypedSharedIndexInformer[${obj}](f.factory.InformerFor(${zero}, f.newInformer))
}

// Lister returns a lister reading the shared informer's cache.
func (f *${impl}) Lister() ${listers}.${Kind}Lister {
	return ${listers}.New${Kind}Lister(f.Informer().GetIndexer())
}

// ToTyped${Kind}Informer returns informer as a Typed${Kind}Informer, wrapping
// it when it lacks TypedInformer. informer must hold ${obj} objects: the
// typed methods of the result panic on anything else.
func ToTyped${Kind}Informer(informer ${Kind}Informer) Typed${Kind}Informer {
	if typed, ok := informer.(Typed${Kind}Informer); ok {
		return typed
	}
	return &${adapter}{informer}
}

// ${adapter} adds TypedInformer to a ${Kind}Informer.
type ${adapter} struct {
	${Kind}Informer
}

// TypedInformer returns the wrapped informer with typed methods.
func (a *${adapter}) TypedInformer() ${Kind}IndexInformer {
	return ${cache}.NewTypedSharedIndexInformer[${obj}](a.Informer())
}

// To${Kind}IndexInformer returns informer with typed methods. informer must
// hold ${obj} objects: the typed methods panic on anything else.
func To${Kind}IndexInformer(informer ${cache}.SharedIndexInformer) ${Kind}IndexInformer {
	if typed, ok := informer.(${Kind}IndexInformer); ok {
		return typed
	}
	return ${cache}.NewTypedSharedIndexInformer[${obj}](informer)
}
`
