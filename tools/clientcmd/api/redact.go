package api

import "encoding/base64"

// Placeholders written over secrets.
const redactedText = "REDACTED"

// omittedData is chosen so that its base64 form, which is how JSON and YAML
// print a []byte, reads "DATA+OMITTED".
var omittedData = mustDecodeBase64("DATA+OMITTED")

func mustDecodeBase64(s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// ShortenConfig makes config readable for humans: inline certificate and key
// data print as DATA+OMITTED once serialized, and bearer tokens become
// REDACTED.
func ShortenConfig(config *Config) {
	for _, user := range config.AuthInfos {
		if user == nil {
			continue
		}
		if len(user.ClientCertificateData) != 0 {
			user.ClientCertificateData = omittedData
		}
		if len(user.ClientKeyData) != 0 {
			user.ClientKeyData = omittedData
		}
		if user.Token != "" {
			user.Token = redactedText
		}
	}
	for _, cluster := range config.Clusters {
		if cluster != nil && len(cluster.CertificateAuthorityData) != 0 {
			cluster.CertificateAuthorityData = omittedData
		}
	}
}

// RedactSecrets overwrites every secret in config (the fields tagged with a
// datapolicy: client key data, bearer tokens and passwords) with REDACTED.
// Empty secrets are left empty.
func RedactSecrets(config *Config) error {
	for _, user := range config.AuthInfos {
		if user == nil {
			continue
		}
		if user.ClientKeyData != nil {
			user.ClientKeyData = []byte(redactedText)
		}
		if user.Token != "" {
			user.Token = redactedText
		}
		if user.Password != "" {
			user.Password = redactedText
		}
	}
	return nil
}
