package version

import (
	"runtime"

	apimachineryversion "k8s.io/apimachinery/pkg/version"
)

// Get returns the version information of the running binary: the
// build-time values together with the Go toolchain and platform it runs on.
func Get() apimachineryversion.Info {
	return apimachineryversion.Info{
		Major:        gitMajor,
		Minor:        gitMinor,
		GitVersion:   gitVersion,
		GitCommit:    gitCommit,
		GitTreeState: gitTreeState,
		BuildDate:    buildDate,
		GoVersion:    runtime.Version(),
		Compiler:     runtime.Compiler,
		Platform:     runtime.GOOS + "/" + runtime.GOARCH,
	}
}
