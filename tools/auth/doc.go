// Package auth reads the legacy "auth info" file: a small JSON document
// with the credentials (user and password, bearer token, or client
// certificate) and CA a client needs to reach a cluster. Info is only the
// file format; MergeWithConfig copies it into a rest.Config.
//
// Example:
//
//	info, err := auth.LoadFromFile(path)
//	if err != nil {
//		return err
//	}
//	cfg, err := info.MergeWithConfig(rest.Config{Host: "https://example.com:6443"})
//
// Layer 1 (configuration) of kubeclient; see the README's Layers section.
package auth
