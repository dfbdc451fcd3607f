// Package appsv1beta1 registers the apps/v1beta1 Scale with a scheme together with its
// conversions to and from the internal scheme.Scale.
package appsv1beta1
