package clientcmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// A kubeconfig refers to files by path: a cluster's certificate-authority;
// a user's client-certificate, client-key, tokenFile and exec command. The
// Get*FileReferences functions return pointers to those fields so that one
// rewrite (resolve against a folder, or make relative to it) serves every
// entry type. Empty references are never rewritten.

// GetClusterFileReferences returns pointers to the cluster's file
// references: its certificate-authority.
func GetClusterFileReferences(cluster *clientcmdapi.Cluster) []*string {
	return []*string{&cluster.CertificateAuthority}
}

// GetAuthInfoFileReferences returns pointers to the user's file references:
// client-certificate, client-key, tokenFile, and the exec command when it
// contains a path separator (a bare command name is looked up in PATH and is
// not a file reference).
func GetAuthInfoFileReferences(authInfo *clientcmdapi.AuthInfo) []*string {
	refs := []*string{&authInfo.ClientCertificate, &authInfo.ClientKey, &authInfo.TokenFile}
	if exec := authInfo.Exec; exec != nil && strings.ContainsRune(exec.Command, filepath.Separator) {
		refs = append(refs, &exec.Command)
	}
	return refs
}

// GetConfigFileReferences returns pointers to every file reference of every
// cluster and user in config.
func GetConfigFileReferences(config *clientcmdapi.Config) []*string {
	refs := make([]*string, 0, len(config.Clusters)+4*len(config.AuthInfos))
	for _, cluster := range config.Clusters {
		refs = append(refs, GetClusterFileReferences(cluster)...)
	}
	for _, authInfo := range config.AuthInfos {
		refs = append(refs, GetAuthInfoFileReferences(authInfo)...)
	}
	return refs
}

// rewriteEach replaces every non-empty reference in refs by what rewrite
// returns for it, stopping at the first error.
func rewriteEach(refs []*string, rewrite func(path string) (string, error)) error {
	for _, ref := range refs {
		if *ref == "" {
			continue
		}
		rewritten, err := rewrite(*ref)
		if err != nil {
			return err
		}
		*ref = rewritten
	}
	return nil
}

// ResolvePaths joins every non-empty relative path in refs onto base.
func ResolvePaths(refs []*string, base string) error {
	return rewriteEach(refs, func(path string) (string, error) {
		if filepath.IsAbs(path) {
			return path, nil
		}
		return filepath.Join(base, path), nil
	})
}

// RelativizePathWithNoBacksteps rewrites each non-empty path in refs relative
// to base, unless that would need a ".." step: such a path is kept when it is
// absolute and is an error otherwise.
func RelativizePathWithNoBacksteps(refs []*string, base string) error {
	return rewriteEach(refs, func(path string) (string, error) {
		rel, err := MakeRelative(path, base)
		switch {
		case err != nil:
			return "", err
		case !leavesBase(rel):
			return rel, nil
		case filepath.IsAbs(path):
			return path, nil
		}
		return "", fmt.Errorf("%v requires backsteps and is not absolute", path)
	})
}

// leavesBase reports whether the relative path rel starts with a ".." step.
func leavesBase(rel string) bool {
	return strings.HasPrefix(rel, "../") || strings.HasPrefix(rel, ".."+string(os.PathSeparator))
}

// MakeRelative returns path relative to base (filepath.Rel); an empty path
// stays empty, and on error path is returned unchanged.
func MakeRelative(path, base string) (string, error) {
	if path == "" {
		return path, nil
	}
	if rel, err := filepath.Rel(base, path); err != nil {
		return path, err
	} else {
		return rel, nil
	}
}

// ResolveConfigPaths makes every relative file reference in config absolute
// against base.
func ResolveConfigPaths(config *clientcmdapi.Config, base string) error {
	return ResolvePaths(GetConfigFileReferences(config), base)
}

// RelativizeConfigPaths rewrites every file reference in config relative to
// base, where that needs no "..".
func RelativizeConfigPaths(config *clientcmdapi.Config, base string) error {
	return RelativizePathWithNoBacksteps(GetConfigFileReferences(config), base)
}

// originFolder returns the absolute folder holding the kubeconfig file
// origin.
func originFolder(origin string) (string, error) {
	folder, err := filepath.Abs(filepath.Dir(origin))
	if err != nil {
		return "", fmt.Errorf("could not determine the absolute path of config file %s: %v", origin, err)
	}
	return folder, nil
}

// ResolveLocalPaths makes the relative file references of every cluster and
// user absolute, against the folder of the file the entry was loaded from
// (its LocationOfOrigin). Entries without a LocationOfOrigin are left alone.
// LoadFromFile does not do this itself so that a file can be loaded and
// written back unchanged.
func ResolveLocalPaths(config *clientcmdapi.Config) error {
	type entry struct {
		origin string
		refs   []*string
	}
	var entries []entry
	for _, cluster := range config.Clusters {
		if cluster != nil {
			entries = append(entries, entry{cluster.LocationOfOrigin, GetClusterFileReferences(cluster)})
		}
	}
	for _, authInfo := range config.AuthInfos {
		if authInfo != nil {
			entries = append(entries, entry{authInfo.LocationOfOrigin, GetAuthInfoFileReferences(authInfo)})
		}
	}
	for _, e := range entries {
		if e.origin == "" {
			continue
		}
		folder, err := originFolder(e.origin)
		if err == nil {
			err = ResolvePaths(e.refs, folder)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// relativizeToOrigin resolves refs against the folder of origin, then makes
// them relative to it where that needs no "..". An empty origin is an error
// that names the entry as describe says.
func relativizeToOrigin(origin string, refs []*string, describe func() string) error {
	if origin == "" {
		return fmt.Errorf("no location of origin for %s", describe())
	}
	folder, err := originFolder(origin)
	if err == nil {
		err = ResolvePaths(refs, folder)
	}
	if err != nil {
		return err
	}
	return RelativizePathWithNoBacksteps(refs, folder)
}

// RelativizeClusterLocalPaths rewrites the cluster's file references relative
// to the folder of its LocationOfOrigin. Existing relative references are
// first taken as relative to that folder; new ones must already be absolute.
func RelativizeClusterLocalPaths(cluster *clientcmdapi.Cluster) error {
	return relativizeToOrigin(cluster.LocationOfOrigin, GetClusterFileReferences(cluster),
		func() string { return cluster.Server })
}

// RelativizeAuthInfoLocalPaths rewrites the user's file references relative
// to the folder of its LocationOfOrigin, like RelativizeClusterLocalPaths.
// The user appears in the error only in its redacted form.
func RelativizeAuthInfoLocalPaths(authInfo *clientcmdapi.AuthInfo) error {
	return relativizeToOrigin(authInfo.LocationOfOrigin, GetAuthInfoFileReferences(authInfo),
		func() string { return fmt.Sprintf("%v", authInfo) })
}
