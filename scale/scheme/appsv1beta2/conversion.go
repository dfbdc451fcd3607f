package appsv1beta2

import (
	"fmt"

	v1beta2 "k8s.io/api/apps/v1beta2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/scale/scheme"
)

// RegisterConversions adds the conversions between v1beta2.Scale and
// scheme.Scale (and their Spec and Status) to s.
func RegisterConversions(s *runtime.Scheme) error {
	builder := runtime.NewSchemeBuilder(
		conversionFor(Convert_scheme_Scale_To_v1beta2_Scale),
		conversionFor(Convert_v1beta2_Scale_To_scheme_Scale),
		conversionFor(Convert_scheme_ScaleSpec_To_v1beta2_ScaleSpec),
		conversionFor(Convert_v1beta2_ScaleSpec_To_scheme_ScaleSpec),
		conversionFor(Convert_scheme_ScaleStatus_To_v1beta2_ScaleStatus),
		conversionFor(Convert_v1beta2_ScaleStatus_To_scheme_ScaleStatus),
	)
	return builder.AddToScheme(s)
}

// conversionFor turns a typed conversion function into a registration of it.
func conversionFor[In, Out any](convert func(*In, *Out, conversion.Scope) error) func(*runtime.Scheme) error {
	return func(s *runtime.Scheme) error {
		return s.AddConversionFunc((*In)(nil), (*Out)(nil), func(in, out interface{}, scope conversion.Scope) error {
			return convert(in.(*In), out.(*Out), scope)
		})
	}
}

// Convert_scheme_Scale_To_v1beta2_Scale converts the internal Scale to v1beta2.
func Convert_scheme_Scale_To_v1beta2_Scale(in *scheme.Scale, out *v1beta2.Scale, s conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	if err := Convert_scheme_ScaleSpec_To_v1beta2_ScaleSpec(&in.Spec, &out.Spec, s); err != nil {
		return err
	}
	return Convert_scheme_ScaleStatus_To_v1beta2_ScaleStatus(&in.Status, &out.Status, s)
}

// Convert_v1beta2_Scale_To_scheme_Scale converts a v1beta2 Scale to the internal
// one.
func Convert_v1beta2_Scale_To_scheme_Scale(in *v1beta2.Scale, out *scheme.Scale, s conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	if err := Convert_v1beta2_ScaleSpec_To_scheme_ScaleSpec(&in.Spec, &out.Spec, s); err != nil {
		return err
	}
	return Convert_v1beta2_ScaleStatus_To_scheme_ScaleStatus(&in.Status, &out.Status, s)
}

// Convert_scheme_ScaleSpec_To_v1beta2_ScaleSpec converts the internal ScaleSpec
// to v1beta2.
func Convert_scheme_ScaleSpec_To_v1beta2_ScaleSpec(in *scheme.ScaleSpec, out *v1beta2.ScaleSpec, s conversion.Scope) error {
	out.Replicas = in.Replicas
	return nil
}

// Convert_v1beta2_ScaleSpec_To_scheme_ScaleSpec converts a v1beta2 ScaleSpec to
// the internal one.
func Convert_v1beta2_ScaleSpec_To_scheme_ScaleSpec(in *v1beta2.ScaleSpec, out *scheme.ScaleSpec, s conversion.Scope) error {
	out.Replicas = in.Replicas
	return nil
}

// Convert_scheme_ScaleStatus_To_v1beta2_ScaleStatus converts the internal
// ScaleStatus to v1beta2. The selector is written in its string form to
// TargetSelector and, when it consists of match labels only, also as the
// label map in Selector.
func Convert_scheme_ScaleStatus_To_v1beta2_ScaleStatus(in *scheme.ScaleStatus, out *v1beta2.ScaleStatus, s conversion.Scope) error {
	out.Replicas = in.Replicas
	out.Selector = nil
	out.TargetSelector = ""
	if in.Selector == nil {
		return nil
	}
	if len(in.Selector.MatchExpressions) == 0 {
		out.Selector = in.Selector.MatchLabels
	}
	selector, err := metav1.LabelSelectorAsSelector(in.Selector)
	if err != nil {
		return fmt.Errorf("invalid label selector in scale status: %w", err)
	}
	out.TargetSelector = selector.String()
	return nil
}

// Convert_v1beta2_ScaleStatus_To_scheme_ScaleStatus converts a v1beta2 ScaleStatus
// to the internal one. TargetSelector, which can express set-based
// requirements, wins over the label map in Selector.
func Convert_v1beta2_ScaleStatus_To_scheme_ScaleStatus(in *v1beta2.ScaleStatus, out *scheme.ScaleStatus, s conversion.Scope) error {
	out.Replicas = in.Replicas
	out.Selector = nil
	switch {
	case in.TargetSelector != "":
		selector, err := metav1.ParseToLabelSelector(in.TargetSelector)
		if err != nil {
			return fmt.Errorf("failed to parse target selector %q: %w", in.TargetSelector, err)
		}
		out.Selector = selector
	case in.Selector != nil:
		labels := make(map[string]string, len(in.Selector))
		for k, v := range in.Selector {
			labels[k] = v
		}
		out.Selector = &metav1.LabelSelector{MatchLabels: labels}
	}
	return nil
}
