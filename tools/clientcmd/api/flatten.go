package api

import (
	"errors"
	"os"
	"path/filepath"
)

// FlattenConfig inlines every file a config refers to (client certificates,
// client keys and certificate authorities) so that the config no longer
// depends on the file system. Relative paths are resolved against the
// directory of the file each entry came from (LocationOfOrigin).
func FlattenConfig(config *Config) error {
	for _, user := range config.AuthInfos {
		dir, err := MakeAbs(filepath.Dir(user.LocationOfOrigin), "")
		if err != nil {
			return err
		}
		if err := FlattenContent(&user.ClientCertificate, &user.ClientCertificateData, dir); err != nil {
			return err
		}
		if err := FlattenContent(&user.ClientKey, &user.ClientKeyData, dir); err != nil {
			return err
		}
	}
	for _, cluster := range config.Clusters {
		dir, err := MakeAbs(filepath.Dir(cluster.LocationOfOrigin), "")
		if err != nil {
			return err
		}
		if err := FlattenContent(&cluster.CertificateAuthority, &cluster.CertificateAuthorityData, dir); err != nil {
			return err
		}
	}
	return nil
}

// FlattenContent replaces a file reference with the file's bytes: when *path
// is set, the file (relative to baseDir) is read into *contents and *path is
// cleared. Having both a path and inline contents is an error.
func FlattenContent(path *string, contents *[]byte, baseDir string) error {
	if *path == "" {
		return nil
	}
	if len(*contents) != 0 {
		return errors.New("cannot have values for both path and contents")
	}
	data, err := os.ReadFile(ResolvePath(*path, baseDir))
	if err != nil {
		return err
	}
	*contents = data
	*path = ""
	return nil
}

// ResolvePath joins a relative path onto base. Empty and absolute paths are
// returned unchanged.
func ResolvePath(path string, base string) string {
	if path == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(base, path)
}

// MakeAbs makes path absolute: an absolute path is returned as is, otherwise
// it is joined onto base, or onto the working directory when base is empty.
func MakeAbs(path, base string) (string, error) {
	if filepath.IsAbs(path) {
		return path, nil
	}
	if base == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		base = wd
	}
	return filepath.Join(base, path), nil
}
