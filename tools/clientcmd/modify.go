package clientcmd

import (
	"errors"
	"os"
	"reflect"
	"sort"

	"k8s.io/klog/v2"

	restclient "github.com/kubeclient/client-go/rest"
	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// UseModifyConfigLock makes ModifyConfig hold a "<file>.lock" file for every
// file of the loading precedence while it works, so that concurrent writers
// (in this or other processes) fail instead of overwriting each other.
// Turning it off makes ModifyConfig unsafe for concurrent use.
var UseModifyConfigLock = true

// ModifyConfig writes the differences between configAccess's current config
// and newConfig back to disk. Each changed, added or removed cluster, user
// and context is written to the file it came from (its LocationOfOrigin),
// or to configAccess's default file when it has none; the current context
// and preferences go to the explicit file, or to the file that holds them.
// With relativizePaths, the file references of changed clusters and users
// are stored relative to their file's folder; new references must then be
// absolute.
func ModifyConfig(configAccess ConfigAccess, newConfig clientcmdapi.Config, relativizePaths bool) error {
	if UseModifyConfigLock {
		files := configAccess.GetLoadingPrecedence()
		sort.Strings(files)
		for _, filename := range files {
			if err := acquireFileLock(filename); err != nil {
				return err
			}
			defer func() { _ = releaseFileLock(filename) }()
		}
	}

	starting, err := configAccess.GetStartingConfig()
	if err != nil {
		return err
	}
	if reflect.DeepEqual(*starting, newConfig) {
		return nil
	}

	w := &kubeconfigWriter{access: configAccess}

	if starting.CurrentContext != newConfig.CurrentContext {
		if err := w.setCurrentContext(newConfig.CurrentContext); err != nil {
			return err
		}
	}
	if !reflect.DeepEqual(starting.Preferences, newConfig.Preferences) {
		if err := w.setPreferences(newConfig.Preferences); err != nil {
			return err
		}
	}

	for _, name := range sortedKeys(newConfig.Clusters) {
		cluster := newConfig.Clusters[name]
		if old, ok := starting.Clusters[name]; ok && reflect.DeepEqual(cluster, old) {
			continue
		}
		destination := w.destination(cluster.LocationOfOrigin)
		target, err := w.file(destination)
		if err != nil {
			return err
		}
		entry := *cluster
		entry.LocationOfOrigin = destination
		if relativizePaths {
			if err := RelativizeClusterLocalPaths(&entry); err != nil {
				return err
			}
		}
		target.Clusters[name] = &entry
	}

	for _, name := range sortedKeys(newConfig.Contexts) {
		context := newConfig.Contexts[name]
		if old, ok := starting.Contexts[name]; ok && reflect.DeepEqual(context, old) {
			continue
		}
		target, err := w.file(w.destination(context.LocationOfOrigin))
		if err != nil {
			return err
		}
		target.Contexts[name] = context
	}

	for _, name := range sortedKeys(newConfig.AuthInfos) {
		authInfo := newConfig.AuthInfos[name]
		if old, ok := starting.AuthInfos[name]; ok && reflect.DeepEqual(authInfo, old) {
			continue
		}
		destination := w.destination(authInfo.LocationOfOrigin)
		target, err := w.file(destination)
		if err != nil {
			return err
		}
		entry := *authInfo
		entry.LocationOfOrigin = destination
		if relativizePaths {
			if err := RelativizeAuthInfoLocalPaths(&entry); err != nil {
				return err
			}
		}
		target.AuthInfos[name] = &entry
	}

	for _, name := range sortedKeys(starting.Clusters) {
		if _, kept := newConfig.Clusters[name]; kept {
			continue
		}
		target, err := w.file(w.destination(starting.Clusters[name].LocationOfOrigin))
		if err != nil {
			return err
		}
		delete(target.Clusters, name)
	}
	for _, name := range sortedKeys(starting.Contexts) {
		if _, kept := newConfig.Contexts[name]; kept {
			continue
		}
		target, err := w.file(w.destination(starting.Contexts[name].LocationOfOrigin))
		if err != nil {
			return err
		}
		delete(target.Contexts, name)
	}
	for _, name := range sortedKeys(starting.AuthInfos) {
		if _, kept := newConfig.AuthInfos[name]; kept {
			continue
		}
		target, err := w.file(w.destination(starting.AuthInfos[name].LocationOfOrigin))
		if err != nil {
			return err
		}
		delete(target.AuthInfos, name)
	}

	return w.flush()
}

// kubeconfigWriter holds the files one ModifyConfig call changes: each is
// read once, edited in memory and written once by flush.
type kubeconfigWriter struct {
	access  ConfigAccess
	files   map[string]*clientcmdapi.Config
	touched []string
}

// destination returns origin, or the default file when origin is empty.
func (w *kubeconfigWriter) destination(origin string) string {
	if len(origin) == 0 {
		return w.access.GetDefaultFilename()
	}
	return origin
}

// peek returns filename's contents (empty when missing) without marking it
// for writing.
func (w *kubeconfigWriter) peek(filename string) (*clientcmdapi.Config, error) {
	if config, ok := w.files[filename]; ok {
		return config, nil
	}
	config, err := loadOrEmpty(filename)
	if err != nil {
		return nil, err
	}
	if w.files == nil {
		w.files = map[string]*clientcmdapi.Config{}
	}
	w.files[filename] = config
	return config, nil
}

// file returns filename's contents for editing; flush writes it.
func (w *kubeconfigWriter) file(filename string) (*clientcmdapi.Config, error) {
	config, err := w.peek(filename)
	if err != nil {
		return nil, err
	}
	for _, f := range w.touched {
		if f == filename {
			return config, nil
		}
	}
	w.touched = append(w.touched, filename)
	return config, nil
}

// flush writes every edited file.
func (w *kubeconfigWriter) flush() error {
	for _, filename := range w.touched {
		if err := WriteToFile(*w.files[filename], filename); err != nil {
			return err
		}
	}
	return nil
}

// setCurrentContext records a new current context: in the explicit file if
// there is one; else, for a non-empty name, in the default file; else (to
// clear it) in the first existing file that sets one.
func (w *kubeconfigWriter) setCurrentContext(name string) error {
	if w.access.IsExplicitFile() {
		config, err := w.file(w.access.GetExplicitFile())
		if err != nil {
			return err
		}
		config.CurrentContext = name
		return nil
	}
	if len(name) > 0 {
		config, err := w.file(w.access.GetDefaultFilename())
		if err != nil {
			return err
		}
		config.CurrentContext = name
		return nil
	}
	for _, filename := range w.access.GetLoadingPrecedence() {
		if _, err := os.Stat(filename); err != nil {
			continue
		}
		config, err := w.peek(filename)
		if err != nil {
			return err
		}
		if len(config.CurrentContext) > 0 {
			if _, err := w.file(filename); err != nil {
				return err
			}
			config.CurrentContext = name
			return nil
		}
	}
	return errors.New("no config found to write context")
}

// setPreferences records new preferences: in the explicit file if there is
// one, else in the first file of the precedence whose preferences differ.
func (w *kubeconfigWriter) setPreferences(prefs clientcmdapi.Preferences) error {
	if w.access.IsExplicitFile() {
		config, err := w.file(w.access.GetExplicitFile())
		if err != nil {
			return err
		}
		config.Preferences = prefs
		return nil
	}
	for _, filename := range w.access.GetLoadingPrecedence() {
		config, err := w.peek(filename)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(config.Preferences, prefs) {
			if _, err := w.file(filename); err != nil {
				return err
			}
			config.Preferences = prefs
			return nil
		}
	}
	return errors.New("no config found to write preferences")
}

// PersisterForUser returns an AuthProviderConfigPersister that stores an
// auth-provider's state in the named user's entry, in the file it came
// from.
func PersisterForUser(configAccess ConfigAccess, user string) restclient.AuthProviderConfigPersister {
	return &persister{configAccess: configAccess, user: user}
}

// persister writes auth-provider state back through a ConfigAccess.
type persister struct {
	configAccess ConfigAccess
	user         string
}

// Persist replaces the user's auth-provider config with config and saves
// it. A user without an auth-provider is left alone.
func (p *persister) Persist(config map[string]string) error {
	current, err := p.configAccess.GetStartingConfig()
	if err != nil {
		return err
	}
	authInfo, ok := current.AuthInfos[p.user]
	if !ok || authInfo == nil || authInfo.AuthProvider == nil {
		return nil
	}
	authInfo.AuthProvider.Config = config
	return ModifyConfig(p.configAccess, *current, false)
}

// loadOrEmpty loads filename, treating a missing file as an empty
// config.
func loadOrEmpty(filename string) (*clientcmdapi.Config, error) {
	config, err := LoadFromFile(filename)
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	if config == nil {
		config = clientcmdapi.NewConfig()
	}
	return config, nil
}

// GetConfigFromFileOrDie loads filename, exiting the process (through klog)
// when it cannot be read or decoded. A missing file gives an empty config.
func GetConfigFromFileOrDie(filename string) *clientcmdapi.Config {
	config, err := loadOrEmpty(filename)
	if err != nil {
		klog.FatalDepth(1, err)
	}
	return config
}

// acquireFileLock takes the lock of filename by creating "<filename>.lock"
// exclusively, creating the folder if needed. It fails if the lock is held.
func acquireFileLock(filename string) error {
	if err := ensureParentDir(filename); err != nil {
		return err
	}
	f, err := os.OpenFile(lockPath(filename), os.O_CREATE|os.O_EXCL, 0)
	if err != nil {
		return err
	}
	return f.Close()
}

// releaseFileLock releases the lock taken by acquireFileLock.
func releaseFileLock(filename string) error {
	return os.Remove(lockPath(filename))
}

func lockPath(filename string) string {
	return filename + ".lock"
}
