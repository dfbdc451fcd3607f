package auth

import (
	"encoding/json"
	"fmt"
	"os"

	restclient "github.com/kubeclient/client-go/rest"
)

// Info is the content of an auth info file. Its JSON field names are the Go
// field names.
type Info struct {
	User        string
	Password    string `datapolicy:"password"`
	CAFile      string
	CertFile    string
	KeyFile     string
	BearerToken string `datapolicy:"token"`
	Insecure    *bool
}

// LoadFromFile reads an Info from the JSON file at path. A missing file
// yields an error for which os.IsNotExist is true.
func LoadFromFile(path string) (*Info, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	info := &Info{}
	if err := json.Unmarshal(data, info); err != nil {
		return nil, fmt.Errorf("auth info file %s: %w", path, err)
	}
	return info, nil
}

// MergeWithConfig returns a copy of c whose credential fields (Username,
// Password, CAFile, CertFile, KeyFile, BearerToken, and Insecure when set)
// are replaced by the values in info.
func (info Info) MergeWithConfig(c restclient.Config) (restclient.Config, error) {
	c.Username, c.Password, c.BearerToken = info.User, info.Password, info.BearerToken
	c.CAFile, c.CertFile, c.KeyFile = info.CAFile, info.CertFile, info.KeyFile
	if info.Insecure != nil {
		c.Insecure = *info.Insecure
	}
	return c, nil // c is the caller's copy
}

// Complete reports whether info identifies a user: a user name, a client
// certificate or a bearer token.
func (info Info) Complete() bool {
	return info.User != "" || info.CertFile != "" || info.BearerToken != ""
}
