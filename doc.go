// Package clientgo is the root of kubeclient, an original implementation of
// the Kubernetes Go client library with the API of k8s.io/client-go v0.37.2.
//
// The root package holds no code. The library is layered, each layer calling
// only the ones below it:
//
//   - configuration: rest.Config, tools/clientcmd (kubeconfig files), and the
//     exec credential plugins under plugin/pkg/client/auth;
//   - transport: the http.RoundTripper chain in transport;
//   - REST client: rest.RESTClient and rest.Request;
//   - object clients: the generated clientset in kubernetes (built on gentype),
//     dynamic, metadata, discovery, restmapper, scale, listers, informers and
//     applyconfigurations, with fakes in kubernetes/fake and testing;
//   - controller machinery: tools/cache, util/workqueue, tools/leaderelection,
//     tools/record, tools/pager and tools/watch.
package clientgo
