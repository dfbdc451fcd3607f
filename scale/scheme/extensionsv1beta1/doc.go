// Package extensionsv1beta1 registers the extensions/v1beta1 Scale with a scheme together with its
// conversions to and from the internal scheme.Scale.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package extensionsv1beta1
