package version

import (
	"runtime"

	apimachineryversion "k8s.io/apimachinery/pkg/version"
)

// Get returns the version information of the running binary: the
// build-time values together with the Go toolchain and platform it runs on.
func Get() apimachineryversion.Info {
	// The platform part first; then what the linker may have set (see
	// base.go): the release and the source it was built from.
	v := apimachineryversion.Info{GoVersion: runtime.Version(), Compiler: runtime.Compiler, Platform: runtime.GOOS + "/" + runtime.GOARCH}
	v.Major, v.Minor, v.GitVersion = gitMajor, gitMinor, gitVersion
	v.GitCommit, v.GitTreeState, v.BuildDate = gitCommit, gitTreeState, buildDate
	return v
}
