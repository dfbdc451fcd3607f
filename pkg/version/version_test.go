package version

import (
	"runtime"
	"testing"
)

func TestGetReportsBuildVariables(t *testing.T) {
	saved := []string{gitMajor, gitMinor, gitVersion, gitCommit, gitTreeState, buildDate}
	t.Cleanup(func() {
		gitMajor, gitMinor, gitVersion, gitCommit, gitTreeState, buildDate =
			saved[0], saved[1], saved[2], saved[3], saved[4], saved[5]
	})

	tests := []struct {
		name                                          string
		major, minor, gitVer, commit, treeState, date string
	}{
		{name: "defaults", major: saved[0], minor: saved[1], gitVer: saved[2], commit: saved[3], treeState: saved[4], date: saved[5]},
		{name: "stamped", major: "1", minor: "37+", gitVer: "v1.37.2", commit: "0123456789abcdef", treeState: "clean", date: "2026-01-02T03:04:05Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gitMajor, gitMinor, gitVersion, gitCommit, gitTreeState, buildDate =
				tt.major, tt.minor, tt.gitVer, tt.commit, tt.treeState, tt.date
			info := Get()
			checks := map[string][2]string{
				"Major":        {info.Major, tt.major},
				"Minor":        {info.Minor, tt.minor},
				"GitVersion":   {info.GitVersion, tt.gitVer},
				"GitCommit":    {info.GitCommit, tt.commit},
				"GitTreeState": {info.GitTreeState, tt.treeState},
				"BuildDate":    {info.BuildDate, tt.date},
				"GoVersion":    {info.GoVersion, runtime.Version()},
				"Compiler":     {info.Compiler, runtime.Compiler},
				"Platform":     {info.Platform, runtime.GOOS + "/" + runtime.GOARCH},
			}
			for field, gotWant := range checks {
				if gotWant[0] != gotWant[1] {
					t.Errorf("%s = %q, want %q", field, gotWant[0], gotWant[1])
				}
			}
		})
	}
}

func TestDefaultsLookUnstamped(t *testing.T) {
	if gitCommit != "$Format:%H$" {
		t.Skip("binary was stamped with -ldflags")
	}
	info := Get()
	if info.GitVersion != "v0.0.0-master+$Format:%H$" {
		t.Errorf("default GitVersion = %q", info.GitVersion)
	}
	if info.BuildDate != "1970-01-01T00:00:00Z" {
		t.Errorf("default BuildDate = %q", info.BuildDate)
	}
}
