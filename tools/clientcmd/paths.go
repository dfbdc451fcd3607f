package clientcmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// ResolveLocalPaths makes the relative file references of every cluster and
// user absolute, against the folder of the file the entry was loaded from
// (its LocationOfOrigin). Entries without a LocationOfOrigin are left alone.
// LoadFromFile does not do this itself so that a file can be loaded and
// written back unchanged.
func ResolveLocalPaths(config *clientcmdapi.Config) error {
	for _, cluster := range config.Clusters {
		if cluster == nil || len(cluster.LocationOfOrigin) == 0 {
			continue
		}
		base, err := originFolder(cluster.LocationOfOrigin)
		if err != nil {
			return err
		}
		if err := ResolvePaths(GetClusterFileReferences(cluster), base); err != nil {
			return err
		}
	}
	for _, authInfo := range config.AuthInfos {
		if authInfo == nil || len(authInfo.LocationOfOrigin) == 0 {
			continue
		}
		base, err := originFolder(authInfo.LocationOfOrigin)
		if err != nil {
			return err
		}
		if err := ResolvePaths(GetAuthInfoFileReferences(authInfo), base); err != nil {
			return err
		}
	}
	return nil
}

// originFolder returns the absolute folder holding the kubeconfig file
// origin.
func originFolder(origin string) (string, error) {
	base, err := filepath.Abs(filepath.Dir(origin))
	if err != nil {
		return "", fmt.Errorf("could not determine the absolute path of config file %s: %v", origin, err)
	}
	return base, nil
}

// RelativizeClusterLocalPaths rewrites the cluster's file references relative
// to the folder of its LocationOfOrigin. Existing relative references are
// first taken as relative to that folder; new ones must already be absolute.
func RelativizeClusterLocalPaths(cluster *clientcmdapi.Cluster) error {
	if len(cluster.LocationOfOrigin) == 0 {
		return fmt.Errorf("no location of origin for %s", cluster.Server)
	}
	base, err := originFolder(cluster.LocationOfOrigin)
	if err != nil {
		return err
	}
	refs := GetClusterFileReferences(cluster)
	if err := ResolvePaths(refs, base); err != nil {
		return err
	}
	return RelativizePathWithNoBacksteps(refs, base)
}

// RelativizeAuthInfoLocalPaths rewrites the user's file references relative
// to the folder of its LocationOfOrigin, like RelativizeClusterLocalPaths.
func RelativizeAuthInfoLocalPaths(authInfo *clientcmdapi.AuthInfo) error {
	if len(authInfo.LocationOfOrigin) == 0 {
		return fmt.Errorf("no location of origin for %v", authInfo)
	}
	base, err := originFolder(authInfo.LocationOfOrigin)
	if err != nil {
		return err
	}
	refs := GetAuthInfoFileReferences(authInfo)
	if err := ResolvePaths(refs, base); err != nil {
		return err
	}
	return RelativizePathWithNoBacksteps(refs, base)
}

// RelativizeConfigPaths rewrites every file reference in config relative to
// base, where that needs no "..".
func RelativizeConfigPaths(config *clientcmdapi.Config, base string) error {
	return RelativizePathWithNoBacksteps(GetConfigFileReferences(config), base)
}

// ResolveConfigPaths makes every relative file reference in config absolute
// against base.
func ResolveConfigPaths(config *clientcmdapi.Config, base string) error {
	return ResolvePaths(GetConfigFileReferences(config), base)
}

// GetConfigFileReferences returns pointers to every file reference of every
// cluster and user in config.
func GetConfigFileReferences(config *clientcmdapi.Config) []*string {
	refs := []*string{}
	for _, cluster := range config.Clusters {
		refs = append(refs, GetClusterFileReferences(cluster)...)
	}
	for _, authInfo := range config.AuthInfos {
		refs = append(refs, GetAuthInfoFileReferences(authInfo)...)
	}
	return refs
}

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
	if authInfo.Exec != nil && strings.ContainsRune(authInfo.Exec.Command, filepath.Separator) {
		refs = append(refs, &authInfo.Exec.Command)
	}
	return refs
}

// ResolvePaths joins every non-empty relative path in refs onto base.
func ResolvePaths(refs []*string, base string) error {
	for _, ref := range refs {
		if len(*ref) == 0 || filepath.IsAbs(*ref) {
			continue
		}
		*ref = filepath.Join(base, *ref)
	}
	return nil
}

// RelativizePathWithNoBacksteps rewrites each non-empty path in refs relative
// to base, unless that would need a ".." step: such a path is kept when it is
// absolute and is an error otherwise.
func RelativizePathWithNoBacksteps(refs []*string, base string) error {
	for _, ref := range refs {
		if len(*ref) == 0 {
			continue
		}
		rel, err := MakeRelative(*ref, base)
		if err != nil {
			return err
		}
		if strings.HasPrefix(rel, "../") || strings.HasPrefix(rel, ".."+string(os.PathSeparator)) {
			if filepath.IsAbs(*ref) {
				continue
			}
			return fmt.Errorf("%v requires backsteps and is not absolute", *ref)
		}
		*ref = rel
	}
	return nil
}

// MakeRelative returns path relative to base (filepath.Rel); an empty path
// stays empty.
func MakeRelative(path, base string) (string, error) {
	if len(path) == 0 {
		return path, nil
	}
	rel, err := filepath.Rel(base, path)
	if err != nil {
		return path, err
	}
	return rel, nil
}
