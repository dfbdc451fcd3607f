// Package scheme holds the internal, version-independent Scale type that the
// polymorphic scale client converts every served Scale version through, and a
// runtime.Scheme registration for it. The subpackages register the external
// Scale versions (autoscaling/v1, extensions/v1beta1, apps/v1beta1,
// apps/v1beta2) with conversions to and from this type.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package scheme
