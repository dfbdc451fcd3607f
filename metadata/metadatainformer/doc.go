// Package metadatainformer provides shared informers that cache only the
// metadata of objects (metav1.PartialObjectMetadata), listed and watched
// through a metadata.Interface. They suit controllers that track many
// objects, or large ones, but read nothing beyond names, labels, owners and
// the like.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package metadatainformer
