package rest

import "github.com/kubeclient/client-go/internal/tlsfiles"

// LoadTLSFiles reads CAFile, CertFile and KeyFile into CAData, CertData and
// KeyData wherever the data field is still empty. On success every data
// field is filled in or its file was not named.
func LoadTLSFiles(c *Config) error {
	return tlsfiles.Load(
		tlsfiles.Field{Data: &c.CAData, File: c.CAFile},
		tlsfiles.Field{Data: &c.CertData, File: c.CertFile},
		tlsfiles.Field{Data: &c.KeyData, File: c.KeyFile},
	)
}

// IsConfigTransportTLS reports whether a client built from config would use
// https. Insecure is not considered, so the connection may still be open to
// a man in the middle.
func IsConfigTransportTLS(config Config) bool {
	u, _, err := DefaultServerUrlFor(&config)
	return err == nil && u.Scheme == "https"
}
