// Package metadata is a client that reads and watches only the metadata of
// objects (name, namespace, labels, annotations, owner references, ...) of
// any resource, as metav1.PartialObjectMetadata.
//
// The client asks the server to transform its answers into
// PartialObjectMetadata (meta.k8s.io/v1), preferring protobuf and accepting
// JSON, so neither side spends effort on specs and statuses. Servers that
// cannot transform answer with the full object; when that object is JSON
// and looks like a Kubernetes object, its metadata is extracted on the
// client.
//
// Subpackages add a fake for tests (fake), shared informers that cache
// metadata only (metadatainformer) and listers over those caches
// (metadatalister).
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package metadata
