package certificate

import (
	"crypto/rsa"

	certificates "k8s.io/api/certificates/v1"
)

var (
	kubeletServingUsagesWithEncipherment = []certificates.KeyUsage{
		certificates.UsageDigitalSignature,
		certificates.UsageKeyEncipherment,
		certificates.UsageServerAuth,
	}
	kubeletServingUsagesNoEncipherment = []certificates.KeyUsage{
		certificates.UsageDigitalSignature,
		certificates.UsageServerAuth,
	}
	kubeletClientUsagesWithEncipherment = []certificates.KeyUsage{
		certificates.UsageDigitalSignature,
		certificates.UsageKeyEncipherment,
		certificates.UsageClientAuth,
	}
	kubeletClientUsagesNoEncipherment = []certificates.KeyUsage{
		certificates.UsageDigitalSignature,
		certificates.UsageClientAuth,
	}
)

// DefaultKubeletServingGetUsages and DefaultKubeletClientGetUsages are
// Config.GetUsages functions for a kubelet's serving and client certificates.
// Key encipherment is only requested for RSA keys, the only kind that can use
// it.
var (
	DefaultKubeletServingGetUsages = func(privateKey interface{}) []certificates.KeyUsage {
		if _, ok := privateKey.(*rsa.PrivateKey); ok {
			return kubeletServingUsagesWithEncipherment
		}
		return kubeletServingUsagesNoEncipherment
	}

	DefaultKubeletClientGetUsages = func(privateKey interface{}) []certificates.KeyUsage {
		if _, ok := privateKey.(*rsa.PrivateKey); ok {
			return kubeletClientUsagesWithEncipherment
		}
		return kubeletClientUsagesNoEncipherment
	}
)
