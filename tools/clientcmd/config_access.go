package clientcmd

import (
	"os"
	"path/filepath"

	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// ConfigAccess tells commands which kubeconfig files to read and which to
// write when they change the config.
type ConfigAccess interface {
	// GetLoadingPrecedence lists the files read, first one winning.
	GetLoadingPrecedence() []string
	// GetStartingConfig returns the config as currently stored (merged
	// across files when there are several).
	GetStartingConfig() (*clientcmdapi.Config, error)
	// GetDefaultFilename names the file that receives new entries, created
	// if needed.
	GetDefaultFilename() string
	// IsExplicitFile reports whether exactly one file was asked for.
	IsExplicitFile() bool
	// GetExplicitFile names that one file, if any.
	GetExplicitFile() string
}

// PathOptions is the ConfigAccess of kubeconfig-editing commands: an
// explicit file (LoadingRules.ExplicitPath, set from a flag), else the files
// of an environment variable, else a global file.
type PathOptions struct {
	// GlobalFile is the file used when neither an explicit file nor the
	// environment variable names one.
	GlobalFile string
	// EnvVar names the environment variable holding a list of files.
	EnvVar string
	// ExplicitFileFlag names the flag that sets the explicit file.
	ExplicitFileFlag string

	// GlobalFileSubpath is GlobalFile relative to the home folder, for help
	// text.
	GlobalFileSubpath string

	LoadingRules *ClientConfigLoadingRules
}

var _ ConfigAccess = &PathOptions{}

// NewDefaultPathOptions returns PathOptions for ~/.kube/config, $KUBECONFIG
// and --kubeconfig, loading without resolving relative paths (so that what
// is written back keeps them relative).
func NewDefaultPathOptions() *PathOptions {
	rules := NewDefaultClientConfigLoadingRules()
	rules.DoNotResolvePaths = true
	return &PathOptions{
		LoadingRules:      rules,
		ExplicitFileFlag:  RecommendedConfigPathFlag,
		EnvVar:            RecommendedConfigPathEnvVar,
		GlobalFile:        RecommendedHomeFile,
		GlobalFileSubpath: filepath.Join(RecommendedHomeDir, RecommendedFileName),
	}
}

// GetEnvVarFiles returns the files listed in the EnvVar variable, without
// duplicates; none when EnvVar is unset or empty.
func (o *PathOptions) GetEnvVarFiles() []string {
	var list string
	if o.EnvVar != "" {
		list = os.Getenv(o.EnvVar)
	}
	if list == "" {
		return []string{}
	}
	return uniqueInOrder(filepath.SplitList(list))
}

// GetLoadingPrecedence returns the explicit file, else the environment
// files, else the global file.
func (o *PathOptions) GetLoadingPrecedence() []string {
	switch files := o.GetEnvVarFiles(); {
	case o.IsExplicitFile():
		return []string{o.GetExplicitFile()}
	case len(files) != 0:
		return files
	default:
		return []string{o.GlobalFile}
	}
}

// GetStartingConfig loads the files of GetLoadingPrecedence with the
// options' loading rules.
func (o *PathOptions) GetStartingConfig() (*clientcmdapi.Config, error) {
	rules := *o.LoadingRules
	rules.Precedence = o.GetLoadingPrecedence()
	return startingConfigFor(&rules)
}

// GetDefaultFilename returns the file new entries go to: the explicit file;
// else the only environment file, or the first existing one, or the last;
// else the global file.
func (o *PathOptions) GetDefaultFilename() string {
	if o.IsExplicitFile() {
		return o.GetExplicitFile()
	}
	files := o.GetEnvVarFiles()
	switch len(files) {
	case 0:
		return o.GlobalFile
	case 1:
		return files[0]
	}
	for _, f := range files {
		if _, err := os.Stat(f); err == nil {
			return f
		}
	}
	return files[len(files)-1]
}

// IsExplicitFile reports whether LoadingRules has an explicit path.
func (o *PathOptions) IsExplicitFile() bool {
	return len(o.LoadingRules.ExplicitPath) > 0
}

// GetExplicitFile returns LoadingRules' explicit path.
func (o *PathOptions) GetExplicitFile() string {
	return o.LoadingRules.ExplicitPath
}
