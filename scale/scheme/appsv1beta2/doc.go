// Package appsv1beta2 registers the apps/v1beta2 Scale with a scheme together with its
// conversions to and from the internal scheme.Scale.
package appsv1beta2
