package clientcmd

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	goruntime "runtime"
	"slices"
	"strings"

	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/klog/v2"

	restclient "github.com/kubeclient/client-go/rest"
	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
	"github.com/kubeclient/client-go/util/homedir"
)

// Names of the standard kubeconfig flag, environment variable and files.
const (
	RecommendedConfigPathFlag   = "kubeconfig"
	RecommendedConfigPathEnvVar = "KUBECONFIG"
	RecommendedHomeDir          = ".kube"
	RecommendedFileName         = "config"
	RecommendedSchemaName       = "schema"
)

// Standard kubeconfig locations under the user's home folder.
var (
	RecommendedConfigDir  = filepath.Join(homedir.HomeDir(), RecommendedHomeDir)
	RecommendedHomeFile   = filepath.Join(RecommendedConfigDir, RecommendedFileName)
	RecommendedSchemaFile = filepath.Join(RecommendedConfigDir, RecommendedSchemaName)
)

// ClientConfigLoader is a ConfigAccess that can also produce the merged
// Config it gives access to.
type ClientConfigLoader interface {
	ConfigAccess
	// IsDefaultConfig reports whether a rest.Config is only the loader's
	// default, in which case an in-cluster config may be preferred.
	IsDefaultConfig(*restclient.Config) bool
	// Load reads and merges the config afresh.
	Load() (*clientcmdapi.Config, error)
}

// ClientConfigLoadingRules says which kubeconfig files to read and how to
// combine them. ExplicitPath, when set, names the only file to read, and it
// must exist. Otherwise every file of Precedence is read (missing ones are
// skipped) and merged, the first file to set a value winning.
type ClientConfigLoadingRules struct {
	ExplicitPath string
	Precedence   []string

	// MigrationRules maps a destination file to a legacy source file. Before
	// loading, a missing destination is created as a copy of its source,
	// when the source exists.
	MigrationRules map[string]string

	// DoNotResolvePaths keeps relative file references as written instead
	// of resolving them against their file's folder. The zero value
	// resolves, which is what most callers want.
	DoNotResolvePaths bool

	// DefaultClientConfig, when set, computes the "default" rest.Config
	// that IsDefaultConfig compares against; it should use the same
	// overrides as the ClientConfig built on these rules.
	DefaultClientConfig ClientConfig

	// WarnIfAllMissing asks for a warning through Warner when none of the
	// Precedence files exists.
	WarnIfAllMissing bool

	// Warner receives the missing-files warning; nil logs it.
	Warner WarningHandler
}

var _ ClientConfigLoader = &ClientConfigLoadingRules{}

// WarningHandler receives non-fatal problems found while loading.
type WarningHandler func(error)

// Warn passes err to handler, or logs it at verbosity 1 when handler is nil.
func (handler WarningHandler) Warn(err error) {
	if handler == nil {
		klog.V(1).Info(err)
		return
	}
	handler(err)
}

// MissingConfigError lists kubeconfig files that were asked for but do not
// exist.
type MissingConfigError struct {
	Missing []string
}

// Error lists the missing files.
func (c MissingConfigError) Error() string {
	return "Config not found: " + strings.Join(c.Missing, ", ")
}

// NewDefaultClientConfigLoadingRules returns rules that read the files listed
// in $KUBECONFIG (separated by the OS list separator, duplicates dropped,
// warning when none exists) or, when it is unset, ~/.kube/config.
func NewDefaultClientConfigLoadingRules() *ClientConfigLoadingRules {
	rules := &ClientConfigLoadingRules{MigrationRules: legacyHomeFileMigrations()}
	if env := os.Getenv(RecommendedConfigPathEnvVar); len(env) != 0 {
		rules.Precedence = uniqueInOrder(filepath.SplitList(env))
		rules.WarnIfAllMissing = true
	} else {
		rules.Precedence = []string{RecommendedHomeFile}
	}
	return rules
}

// legacyHomeFileMigrations maps the recommended home file to the file older
// releases used in its place, so that an old file is copied to the new
// location on first load. Windows releases already used the current file
// name, under $HOME.
func legacyHomeFileMigrations() map[string]string {
	legacy := filepath.Join(os.Getenv("HOME"), RecommendedHomeDir, ".kubeconfig")
	if goruntime.GOOS == "windows" {
		legacy = filepath.Join(filepath.Dir(legacy), RecommendedFileName)
	}
	return map[string]string{RecommendedHomeFile: legacy}
}

// Load runs the migration rules, then reads the kubeconfig files and merges
// them into one Config.
//
// With ExplicitPath set only that file is read, and its absence is an error.
// Otherwise the Precedence files are read in order; empty names and missing
// files are skipped, while unreadable or undecodable files are reported (the
// others are still merged). Merging follows the kubeconfig rules: a value set
// by an earlier file is never replaced by a later one, and a map entry
// (cluster, user, context, extension) comes whole from the first file that
// has that key. Unless DoNotResolvePaths is set, relative file references
// are made absolute against the folder of the file they came from.
func (rules *ClientConfigLoadingRules) Load() (*clientcmdapi.Config, error) {
	if err := rules.Migrate(); err != nil {
		return nil, err
	}

	var files []string
	if len(rules.ExplicitPath) > 0 {
		if _, err := os.Stat(rules.ExplicitPath); os.IsNotExist(err) {
			return nil, err
		}
		files = []string{rules.ExplicitPath}
	} else {
		files = rules.Precedence
	}

	var (
		errs    []error
		missing []string
		loaded  []*clientcmdapi.Config
	)
	for _, filename := range files {
		if filename == "" {
			continue
		}
		config, err := readKubeconfigFile(filename)
		switch {
		case os.IsNotExist(err):
			missing = append(missing, filename)
		case err != nil:
			errs = append(errs, fmt.Errorf("error loading config file \"%s\": %v", filename, err))
		default:
			loaded = append(loaded, config)
		}
	}

	if rules.WarnIfAllMissing && len(missing) > 0 && len(loaded) == 0 {
		rules.Warner.Warn(MissingConfigError{Missing: missing})
	}

	// Overlaying from the last file to the first leaves, for every value and
	// every map key, what the first file that set it said.
	merged := clientcmdapi.NewConfig()
	for i := len(loaded) - 1; i >= 0; i-- {
		if err := overlay(merged, loaded[i]); err != nil {
			return nil, err
		}
	}

	if rules.ResolvePaths() {
		if err := ResolveLocalPaths(merged); err != nil {
			errs = append(errs, err)
		}
	}
	return merged, utilerrors.NewAggregate(errs)
}

// Migrate copies each MigrationRules source file to its destination when the
// destination does not exist yet and the source does. The copy keeps the
// source's permission bits minus any execute bits.
func (rules *ClientConfigLoadingRules) Migrate() error {
	for destination, source := range rules.MigrationRules {
		_, err := os.Stat(destination)
		switch {
		case err == nil, os.IsPermission(err):
			continue
		case !os.IsNotExist(err):
			return err
		}

		info, err := os.Stat(source)
		if err != nil {
			if os.IsNotExist(err) || os.IsPermission(err) {
				continue
			}
			return err
		}
		if info.IsDir() {
			return fmt.Errorf("cannot migrate %v to %v because it is a directory", source, destination)
		}
		data, err := os.ReadFile(source)
		if err != nil {
			return err
		}
		if err := os.WriteFile(destination, data, info.Mode().Perm()&0666); err != nil {
			return err
		}
	}
	return nil
}

// GetLoadingPrecedence returns the explicit file alone when one is set, or a
// copy of Precedence.
func (rules *ClientConfigLoadingRules) GetLoadingPrecedence() []string {
	if len(rules.ExplicitPath) > 0 {
		return []string{rules.ExplicitPath}
	}
	return slices.Clone(rules.Precedence)
}

// IsExplicitFile reports whether ExplicitPath is set.
func (rules *ClientConfigLoadingRules) IsExplicitFile() bool {
	return rules.ExplicitPath != ""
}

// GetExplicitFile returns ExplicitPath.
func (rules *ClientConfigLoadingRules) GetExplicitFile() string {
	return rules.ExplicitPath
}

// GetDefaultFilename returns the file new entries should be written to: the
// explicit file, else the first Precedence file that exists, else the first
// Precedence file.
func (rules *ClientConfigLoadingRules) GetDefaultFilename() string {
	if rules.ExplicitPath != "" {
		return rules.ExplicitPath
	}
	candidates := rules.Precedence
	if i := slices.IndexFunc(candidates, fileExists); i >= 0 {
		return candidates[i]
	}
	if len(candidates) == 0 {
		return ""
	}
	return candidates[0]
}

// fileExists reports whether name can be stat'ed.
func fileExists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// IsDefaultConfig reports whether config equals what DefaultClientConfig
// produces; it is false when DefaultClientConfig is unset or fails.
func (rules *ClientConfigLoadingRules) IsDefaultConfig(config *restclient.Config) bool {
	if rules.DefaultClientConfig == nil {
		return false
	}
	defaults, err := rules.DefaultClientConfig.ClientConfig()
	return err == nil && reflect.DeepEqual(config, defaults)
}

// GetStartingConfig returns the merged config the rules load, before any
// overrides; a missing explicit file gives an empty Config.
func (rules *ClientConfigLoadingRules) GetStartingConfig() (*clientcmdapi.Config, error) {
	return startingConfigFor(rules)
}

// startingConfigFor loads the raw config through loader, treating a missing
// file as an empty config.
func startingConfigFor(loader ClientConfigLoader) (*clientcmdapi.Config, error) {
	raw, err := NewNonInteractiveDeferredLoadingClientConfig(loader, &ConfigOverrides{}).RawConfig()
	switch {
	case os.IsNotExist(err):
		return clientcmdapi.NewConfig(), nil
	case err != nil:
		return nil, err
	}
	return &raw, nil
}

// ResolvePaths reports whether relative file references are resolved
// against their files' folders (the negation of DoNotResolvePaths).
func (rules ClientConfigLoadingRules) ResolvePaths() bool {
	return !rules.DoNotResolvePaths
}

// uniqueInOrder returns s without repeated entries, keeping first occurrences
// in order.
func uniqueInOrder(s []string) []string {
	seen := make(map[string]bool, len(s))
	out := make([]string, 0, len(s))
	for _, v := range s {
		if seen[v] {
			continue
		}
		seen[v] = true
		out = append(out, v)
	}
	return out
}
