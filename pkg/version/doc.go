// Package version reports the version of the code a binary was built from.
//
// The values come from package variables that the build sets with the
// linker, for example:
//
//	go build -ldflags "-X github.com/kubeclient/client-go/pkg/version.gitVersion=v1.2.3 \
//	    -X github.com/kubeclient/client-go/pkg/version.gitCommit=$(git rev-parse HEAD)"
//
// Without such flags the placeholders below are reported.
//
// Layer 1 (configuration) of kubeclient; see the README's Layers section.
package version
