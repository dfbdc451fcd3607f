package discovery

import (
	"context"
	"encoding/json"
	"fmt"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	"google.golang.org/protobuf/proto"
	"k8s.io/apimachinery/pkg/version"
)

// openAPIV2Protobuf is the media type of the protobuf-encoded OpenAPI v2
// document served at /openapi/v2.
const openAPIV2Protobuf = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf"

// ServerVersion returns the server's build information from /version.
//
// Prefer ServerVersionWithContext.
func (d *DiscoveryClient) ServerVersion() (*version.Info, error) {
	return d.ServerVersionWithContext(context.Background())
}

// ServerVersionWithContext returns the server's build information from
// /version.
func (d *DiscoveryClient) ServerVersionWithContext(ctx context.Context) (*version.Info, error) {
	body, err := d.restClient.Get().AbsPath("/version").Do(ctx).Raw()
	if err != nil {
		return nil, err
	}
	var info version.Info
	if err := json.Unmarshal(body, &info); err != nil {
		return nil, fmt.Errorf("unable to parse the server version: %w", err)
	}
	return &info, nil
}

// OpenAPISchema downloads the server's OpenAPI v2 document from /openapi/v2
// in its protobuf encoding and parses it.
//
// Prefer OpenAPISchemaWithContext.
func (d *DiscoveryClient) OpenAPISchema() (*openapi_v2.Document, error) {
	return d.OpenAPISchemaWithContext(context.Background())
}

// OpenAPISchemaWithContext downloads the server's OpenAPI v2 document from
// /openapi/v2 in its protobuf encoding and parses it.
func (d *DiscoveryClient) OpenAPISchemaWithContext(ctx context.Context) (*openapi_v2.Document, error) {
	body, err := d.restClient.Get().
		AbsPath("/openapi/v2").
		SetHeader("Accept", openAPIV2Protobuf).
		Do(ctx).
		Raw()
	if err != nil {
		return nil, err
	}
	doc := &openapi_v2.Document{}
	if err := proto.Unmarshal(body, doc); err != nil {
		return nil, fmt.Errorf("parsing the OpenAPI v2 document from /openapi/v2: %w", err)
	}
	return doc, nil
}
