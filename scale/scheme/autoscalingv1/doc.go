// Package autoscalingv1 registers the autoscaling/v1 Scale with a scheme together with its
// conversions to and from the internal scheme.Scale.
package autoscalingv1
