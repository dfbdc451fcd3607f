package rest

import "os"

// LoadTLSFiles reads CAFile, CertFile and KeyFile into CAData, CertData and
// KeyData wherever the data field is still empty. On success every data
// field is filled in or its file was not named.
func LoadTLSFiles(c *Config) error {
	var err error
	if c.CAData, err = dataFromSliceOrFile(c.CAData, c.CAFile); err != nil {
		return err
	}
	if c.CertData, err = dataFromSliceOrFile(c.CertData, c.CertFile); err != nil {
		return err
	}
	c.KeyData, err = dataFromSliceOrFile(c.KeyData, c.KeyFile)
	return err
}

// dataFromSliceOrFile prefers inline data, then the content of file.
func dataFromSliceOrFile(data []byte, file string) ([]byte, error) {
	if len(data) > 0 {
		return data, nil
	}
	if file == "" {
		return nil, nil
	}
	content, err := os.ReadFile(file)
	if err != nil {
		return []byte{}, err
	}
	return content, nil
}

// IsConfigTransportTLS reports whether a client built from config would use
// https. Insecure is not considered, so the connection may still be open to
// a man in the middle.
func IsConfigTransportTLS(config Config) bool {
	u, _, err := DefaultServerUrlFor(&config)
	return err == nil && u.Scheme == "https"
}
