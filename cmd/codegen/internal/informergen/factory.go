package informergen

import (
	"fmt"
	"path"

	"github.com/kubeclient/client-go/cmd/codegen/internal/gofile"
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

// factory writes the root package: doc.go, factory.go (SharedInformerFactory
// and its options) and generic.go (GenericInformer and ForResource).
func (g *generator) factory(gs []selectedGroup, out *gofile.Output) error {
	pkg := path.Base(g.l.InformersRel())
	if err := out.Add(g.l.InformersRel(), "doc.go", gofile.NewWithDoc(pkg, "Package "+pkg+" holds the SharedInformerFactory, which builds and shares one\ninformer per resource type, and gives access to the informers of every API\ngroup it knows.")); err != nil {
		return err
	}
	if err := out.Add(g.l.InformersRel(), "factory.go", g.factoryFile(gs, pkg)); err != nil {
		return err
	}
	return out.Add(g.l.InformersRel(), "generic.go", g.genericFile(gs, pkg))
}

func (g *generator) factoryFile(gs []selectedGroup, pkg string) *gofile.File {
	f := gofile.New(pkg)
	a := map[string]string{
		"cache":   f.Import(g.l.Runtime("tools/cache")),
		"ii":      f.Import(g.l.Import(g.l.InternalInterfacesRel())),
		"kube":    f.Import(g.l.Import(g.l.ClientsetPath)),
		"context": f.Import("context"),
		"reflect": f.Import("reflect"),
		"sync":    f.Import("sync"),
		"time":    f.Import("time"),
		"metav1":  f.Import("k8s.io/apimachinery/pkg/apis/meta/v1"),
		"runtime": f.Import("k8s.io/apimachinery/pkg/runtime"),
		"schema":  f.Import("k8s.io/apimachinery/pkg/runtime/schema"),
		"wait":    f.Import("k8s.io/apimachinery/pkg/util/wait"),
	}
	accessors, methods := "", ""
	for _, sg := range gs {
		alias := f.Import(g.l.Import(g.l.InformerGroupRel(sg.Group)))
		accessors += fmt.Sprintf("\t// %s returns the informers of the %s group.\n\t%s() %s.Interface\n", sg.GoName, groupLabel(sg.Group), sg.GoName, alias)
		methods += fmt.Sprintf("\n// %s returns the informers of the %s group.\nfunc (f *sharedInformerFactory) %s() %s.Interface {\n\treturn %s.New(f, f.namespace, f.tweakListOptions)\n}\n", sg.GoName, groupLabel(sg.Group), sg.GoName, alias, alias)
	}
	a["accessors"] = accessors
	f.Write(expand(factoryTemplate, a))
	f.Write(methods)
	return f
}

const factoryTemplate = `// SharedInformerOption configures a factory built by
// NewSharedInformerFactoryWithOptions.
type SharedInformerOption func(*sharedInformerFactory) *sharedInformerFactory

// sharedInformerFactory implements SharedInformerFactory.
type sharedInformerFactory struct {
	client           ${kube}.Interface
	namespace        string
	tweakListOptions ${ii}.TweakListOptionsFunc
	defaultResync    ${time}.Duration
	transform        ${cache}.TransformFunc
	informerName     *${cache}.InformerName

	// lock guards the maps and shuttingDown below; the options above are
	// set before the factory is shared and never change afterwards.
	lock         ${sync}.Mutex
	customResync map[${reflect}.Type]${time}.Duration
	// informers holds one informer per object type; startedInformers
	// records those whose Run goroutine was started.
	informers        map[${reflect}.Type]${cache}.SharedIndexInformer
	startedInformers map[${reflect}.Type]bool
	// shuttingDown stops Start from launching informers once Shutdown ran.
	shuttingDown bool

	// wg counts the informer goroutines started by Start; Shutdown waits
	// for them.
	wg ${sync}.WaitGroup
}

// WithCustomResyncConfig sets the resync period of the informers of the
// types of the given objects, overriding the factory's default.
func WithCustomResyncConfig(resyncConfig map[${metav1}.Object]${time}.Duration) SharedInformerOption {
	return func(factory *sharedInformerFactory) *sharedInformerFactory {
		for obj, period := range resyncConfig {
			factory.customResync[${reflect}.TypeOf(obj)] = period
		}
		return factory
	}
}

// WithTweakListOptions makes every informer of the factory edit its list
// and watch options with tweakListOptions.
func WithTweakListOptions(tweakListOptions ${ii}.TweakListOptionsFunc) SharedInformerOption {
	return func(factory *sharedInformerFactory) *sharedInformerFactory {
		factory.tweakListOptions = tweakListOptions
		return factory
	}
}

// WithNamespace restricts the namespaced informers of the factory to
// namespace.
func WithNamespace(namespace string) SharedInformerOption {
	return func(factory *sharedInformerFactory) *sharedInformerFactory {
		factory.namespace = namespace
		return factory
	}
}

// WithTransform installs transform on every informer of the factory; it
// runs on each object before the object is stored.
func WithTransform(transform ${cache}.TransformFunc) SharedInformerOption {
	return func(factory *sharedInformerFactory) *sharedInformerFactory {
		factory.transform = transform
		return factory
	}
}

// WithInformerName names the factory's informers in metrics. Shutdown
// releases the name.
func WithInformerName(informerName *${cache}.InformerName) SharedInformerOption {
	return func(factory *sharedInformerFactory) *sharedInformerFactory {
		factory.informerName = informerName
		return factory
	}
}

// InformerName returns the name set by WithInformerName, or nil.
func (f *sharedInformerFactory) InformerName() *${cache}.InformerName {
	return f.informerName
}

// NewSharedInformerFactory returns a factory of informers over every
// namespace that resync every defaultResync (0: never).
func NewSharedInformerFactory(client ${kube}.Interface, defaultResync ${time}.Duration) SharedInformerFactory {
	return NewSharedInformerFactoryWithOptions(client, defaultResync)
}

// NewFilteredSharedInformerFactory returns a factory whose informers watch
// only namespace and edit their list options with tweakListOptions.
//
// Deprecated: use NewSharedInformerFactoryWithOptions with WithNamespace and
// WithTweakListOptions.
func NewFilteredSharedInformerFactory(client ${kube}.Interface, defaultResync ${time}.Duration, namespace string, tweakListOptions ${ii}.TweakListOptionsFunc) SharedInformerFactory {
	return NewSharedInformerFactoryWithOptions(client, defaultResync, WithNamespace(namespace), WithTweakListOptions(tweakListOptions))
}

// NewSharedInformerFactoryWithOptions returns a factory configured by
// options, applied in order.
func NewSharedInformerFactoryWithOptions(client ${kube}.Interface, defaultResync ${time}.Duration, options ...SharedInformerOption) SharedInformerFactory {
	factory := &sharedInformerFactory{
		client:           client,
		namespace:        ${metav1}.NamespaceAll,
		defaultResync:    defaultResync,
		customResync:     map[${reflect}.Type]${time}.Duration{},
		informers:        map[${reflect}.Type]${cache}.SharedIndexInformer{},
		startedInformers: map[${reflect}.Type]bool{},
	}
	for _, opt := range options {
		factory = opt(factory)
	}
	return factory
}

// Start runs, each in its own goroutine, the informers requested so far
// and not yet started, until stopCh is closed.
func (f *sharedInformerFactory) Start(stopCh <-chan struct{}) {
	f.StartWithContext(${wait}.ContextForChannel(stopCh))
}

// StartWithContext runs, each in its own goroutine, the informers
// requested so far and not yet started, until ctx is canceled. After
// Shutdown it does nothing.
func (f *sharedInformerFactory) StartWithContext(ctx ${context}.Context) {
	f.lock.Lock()
	defer f.lock.Unlock()
	if f.shuttingDown {
		return
	}
	for t, informer := range f.informers {
		if f.startedInformers[t] {
			continue
		}
		f.startedInformers[t] = true
		f.wg.Go(func() { informer.RunWithContext(ctx) })
	}
}

// Shutdown stops Start from launching informers and waits until every
// informer goroutine has returned, which happens once the channels or
// contexts they were started with are done. It may be called more than
// once, concurrently.
func (f *sharedInformerFactory) Shutdown() {
	f.lock.Lock()
	f.shuttingDown = true
	f.lock.Unlock()
	f.wg.Wait()
	f.informerName.Release()
}

// WaitForCacheSync waits until every started informer has synced or
// stopCh is closed, and reports which did.
func (f *sharedInformerFactory) WaitForCacheSync(stopCh <-chan struct{}) map[${reflect}.Type]bool {
	return f.WaitForCacheSyncWithContext(${wait}.ContextForChannel(stopCh)).Synced
}

// WaitForCacheSyncWithContext waits until every started informer has
// synced or ctx is done. The result records each informer's state and, when
// one did not sync, the cause of ctx.
func (f *sharedInformerFactory) WaitForCacheSyncWithContext(ctx ${context}.Context) ${cache}.SyncResult {
	started := f.startedSnapshot()
	checkers := make([]${cache}.DoneChecker, 0, len(started))
	for _, informer := range started {
		checkers = append(checkers, informer.HasSyncedChecker())
	}
	${cache}.WaitFor(ctx, "", checkers...)
	result := ${cache}.SyncResult{Synced: make(map[${reflect}.Type]bool, len(started))}
	for t, informer := range started {
		synced := informer.HasSynced()
		result.Synced[t] = synced
		if !synced {
			result.Err = ${context}.Cause(ctx)
		}
	}
	return result
}

// startedSnapshot returns the started informers by type.
func (f *sharedInformerFactory) startedSnapshot() map[${reflect}.Type]${cache}.SharedIndexInformer {
	f.lock.Lock()
	defer f.lock.Unlock()
	started := make(map[${reflect}.Type]${cache}.SharedIndexInformer, len(f.startedInformers))
	for t, informer := range f.informers {
		if f.startedInformers[t] {
			started[t] = informer
		}
	}
	return started
}

// InformerFor returns the factory's informer for the type of obj, building
// it with newFunc, the type's resync period and the factory's transform on
// first use.
func (f *sharedInformerFactory) InformerFor(obj ${runtime}.Object, newFunc ${ii}.NewInformerFunc) ${cache}.SharedIndexInformer {
	f.lock.Lock()
	defer f.lock.Unlock()
	t := ${reflect}.TypeOf(obj)
	if informer, ok := f.informers[t]; ok {
		return informer
	}
	resync, ok := f.customResync[t]
	if !ok {
		resync = f.defaultResync
	}
	informer := newFunc(f.client, resync)
	if f.transform != nil {
		// The informer is not running yet, so setting the transform cannot
		// fail.
		_ = informer.SetTransform(f.transform)
	}
	f.informers[t] = informer
	return informer
}

// SharedInformerFactory builds one shared informer per resource type and
// hands it to every caller asking for that type, so that one list+watch and
// one cache serve them all.
//
// Typical use: request informers (which registers them), Start, then
// WaitForCacheSync before reading listers:
//
//	factory := NewSharedInformerFactory(client, 10*time.Minute)
//	pods := factory.Core().V1().Pods()
//	factory.Start(ctx.Done())
//	factory.WaitForCacheSync(ctx.Done())
//	list, err := pods.Lister().List(labels.Everything())
type SharedInformerFactory interface {
	${ii}.SharedInformerFactory

	// Start runs the informers requested so far in goroutines that stop
	// when stopCh is closed. It does not block.
	Start(stopCh <-chan struct{})
	// StartWithContext runs the informers requested so far in goroutines
	// that stop when ctx is canceled. It does not block.
	StartWithContext(ctx ${context}.Context)
	// Shutdown prevents further starts and blocks until every informer
	// goroutine has returned.
	Shutdown()
	// WaitForCacheSync blocks until the started informers have synced or
	// stopCh is closed.
	WaitForCacheSync(stopCh <-chan struct{}) map[${reflect}.Type]bool
	// WaitForCacheSyncWithContext blocks until the started informers have
	// synced or ctx is done.
	WaitForCacheSyncWithContext(ctx ${context}.Context) ${cache}.SyncResult
	// ForResource returns the informer of a resource by its group, version
	// and resource name.
	ForResource(resource ${schema}.GroupVersionResource) (GenericInformer, error)
	// InformerFor returns the shared informer of the type of obj, built
	// with newFunc on first use.
	InformerFor(obj ${runtime}.Object, newFunc ${ii}.NewInformerFunc) ${cache}.SharedIndexInformer

${accessors}}
`

// genericFile writes generic.go: GenericInformer and the ForResource
// lookup of every informable group version resource.
func (g *generator) genericFile(gs []selectedGroup, pkg string) *gofile.File {
	f := gofile.New(pkg)
	cache := f.Import(g.l.Runtime("tools/cache"))
	schema := f.Import("k8s.io/apimachinery/pkg/runtime/schema")
	fmtAlias := f.Import("fmt")
	f.Printf(`// GenericInformer is an informer of any resource, with a lister returning
// runtime.Objects.
type GenericInformer interface {
	Informer() %[1]s.SharedIndexInformer
	Lister() %[1]s.GenericLister
}

// genericInformer adapts a shared informer to GenericInformer.
type genericInformer struct {
	informer %[1]s.SharedIndexInformer
	resource %[2]s.GroupResource
}

// Informer returns the shared informer.
func (i *genericInformer) Informer() %[1]s.SharedIndexInformer {
	return i.informer
}

// Lister returns a generic lister reading the shared informer's cache.
func (i *genericInformer) Lister() %[1]s.GenericLister {
	return %[1]s.NewGenericLister(i.informer.GetIndexer(), i.resource)
}

// ForResource returns the shared informer of gvr, or an error when the
// factory has no informer for it.
func (f *sharedInformerFactory) ForResource(gvr %[2]s.GroupVersionResource) (GenericInformer, error) {
	var informer %[1]s.SharedIndexInformer
	switch gvr {
`, cache, schema)
	for _, sg := range gs {
		for _, gv := range sg.Versions {
			f.Printf("\t// %s, version %s\n", groupLabel(sg.Group), gv.Version)
			for _, r := range resources(gv) {
				f.Printf("\tcase %s.GroupVersionResource{Group: %q, Version: %q, Resource: %q}:\n", schema, sg.Name, gv.Version, r.Resource)
				f.Printf("\t\tinformer = f.%s().%s().%s().Informer()\n", sg.GoName, model.UpperFirst(gv.Version), r.Plural)
			}
		}
	}
	f.Printf(`	default:
		return nil, %[1]s.Errorf("no informer found for %%v", gvr)
	}
	return &genericInformer{informer: informer, resource: gvr.GroupResource()}, nil
}
`, fmtAlias)
	return f
}
