// Package clientcmd turns kubeconfig files, command-line overrides and the
// in-cluster environment into a *rest.Config. It belongs to layer 1
// (configuration): it builds on the kubeconfig types of tools/clientcmd/api
// and on rest.Config, and makes no requests itself.
//
// The pieces stack in layers:
//
//   - loading: Load, LoadFromFile and ClientConfigLoadingRules read one or more
//     kubeconfig files and merge them (the first file to set a value wins),
//     resolving relative file references against the file they came from;
//   - selection: DirectClientConfig picks a context, its cluster and its user
//     and lays ConfigOverrides (usually bound to pflag flags) on top;
//   - conversion: ClientConfig() turns the chosen cluster and user into a
//     rest.Config (server, TLS, token, basic auth, impersonation,
//     auth-provider and exec plugins);
//   - persistence: ConfigAccess, PathOptions and ModifyConfig write changes
//     back into the file each entry was loaded from.
//
// DeferredLoadingClientConfig delays loading until first use and falls back
// to the in-cluster configuration when no kubeconfig supplies a server.
//
// Typical use:
//
//	rules := clientcmd.NewDefaultClientConfigLoadingRules()
//	overrides := &clientcmd.ConfigOverrides{}
//	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, overrides).ClientConfig()
package clientcmd
