// Package extensionsv1beta1 registers the extensions/v1beta1 Scale with a scheme together with its
// conversions to and from the internal scheme.Scale.
package extensionsv1beta1
