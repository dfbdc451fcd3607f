package version

// Build-time values, meant to be overridden with -ldflags "-X ...". The
// defaults mark a build made without version stamping.
var (
	// gitMajor is the numeric major version, such as "1".
	gitMajor = ""
	// gitMinor is the minor version, numeric and possibly followed by "+".
	gitMinor = ""

	// gitVersion is a semantic version, as "git describe" gives it.
	gitVersion = "v0.0.0-master+$Format:%H$"
	// gitCommit is the full SHA-1 of the commit built.
	gitCommit = "$Format:%H$"
	// gitTreeState is "clean" or "dirty", or empty when unknown.
	gitTreeState = ""

	// buildDate is the build time in RFC 3339 UTC form.
	buildDate = "1970-01-01T00:00:00Z"
)
