package apply

import (
	"fmt"

	cbor "k8s.io/apimachinery/pkg/runtime/serializer/cbor/direct"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/json"

	"github.com/kubeclient/client-go/features"
	"github.com/kubeclient/client-go/rest"
)

// NewRequest returns a PATCH request on client whose body is applyConfiguration
// encoded for server-side apply. The body is YAML-compatible JSON with the
// application/apply-patch+yaml content type, or CBOR with
// application/apply-patch+cbor when both the ClientsAllowCBOR and
// ClientsPreferCBOR feature gates are on.
func NewRequest(client rest.Interface, applyConfiguration interface{}) (*rest.Request, error) {
	patchType, encode := types.ApplyYAMLPatchType, json.Marshal
	gates := features.FeatureGates()
	if gates.Enabled(features.ClientsAllowCBOR) && gates.Enabled(features.ClientsPreferCBOR) {
		patchType, encode = types.ApplyCBORPatchType, cbor.Marshal
	}
	body, err := encode(applyConfiguration)
	if err != nil {
		return nil, fmt.Errorf("encoding the apply configuration: %w", err)
	}
	return client.Patch(patchType).Body(body), nil
}
