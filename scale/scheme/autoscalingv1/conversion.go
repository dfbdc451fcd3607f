package autoscalingv1

import (
	"fmt"

	v1 "k8s.io/api/autoscaling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/scale/scheme"
)

// RegisterConversions adds the conversions between v1.Scale and
// scheme.Scale (and their Spec and Status) to s.
func RegisterConversions(s *runtime.Scheme) error {
	builder := runtime.NewSchemeBuilder(
		conversionFor(Convert_scheme_Scale_To_v1_Scale),
		conversionFor(Convert_v1_Scale_To_scheme_Scale),
		conversionFor(Convert_scheme_ScaleSpec_To_v1_ScaleSpec),
		conversionFor(Convert_v1_ScaleSpec_To_scheme_ScaleSpec),
		conversionFor(Convert_scheme_ScaleStatus_To_v1_ScaleStatus),
		conversionFor(Convert_v1_ScaleStatus_To_scheme_ScaleStatus),
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

// Convert_scheme_Scale_To_v1_Scale converts the internal Scale to v1.
func Convert_scheme_Scale_To_v1_Scale(in *scheme.Scale, out *v1.Scale, s conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	if err := Convert_scheme_ScaleSpec_To_v1_ScaleSpec(&in.Spec, &out.Spec, s); err != nil {
		return err
	}
	return Convert_scheme_ScaleStatus_To_v1_ScaleStatus(&in.Status, &out.Status, s)
}

// Convert_v1_Scale_To_scheme_Scale converts a v1 Scale to the internal
// one.
func Convert_v1_Scale_To_scheme_Scale(in *v1.Scale, out *scheme.Scale, s conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	if err := Convert_v1_ScaleSpec_To_scheme_ScaleSpec(&in.Spec, &out.Spec, s); err != nil {
		return err
	}
	return Convert_v1_ScaleStatus_To_scheme_ScaleStatus(&in.Status, &out.Status, s)
}

// Convert_scheme_ScaleSpec_To_v1_ScaleSpec converts the internal ScaleSpec
// to v1.
func Convert_scheme_ScaleSpec_To_v1_ScaleSpec(in *scheme.ScaleSpec, out *v1.ScaleSpec, s conversion.Scope) error {
	out.Replicas = in.Replicas
	return nil
}

// Convert_v1_ScaleSpec_To_scheme_ScaleSpec converts a v1 ScaleSpec to
// the internal one.
func Convert_v1_ScaleSpec_To_scheme_ScaleSpec(in *v1.ScaleSpec, out *scheme.ScaleSpec, s conversion.Scope) error {
	out.Replicas = in.Replicas
	return nil
}

// Convert_scheme_ScaleStatus_To_v1_ScaleStatus converts the internal
// ScaleStatus to autoscaling/v1, which carries the selector in its string
// form.
func Convert_scheme_ScaleStatus_To_v1_ScaleStatus(in *scheme.ScaleStatus, out *v1.ScaleStatus, s conversion.Scope) error {
	out.Replicas = in.Replicas
	out.Selector = ""
	if in.Selector == nil {
		return nil
	}
	selector, err := metav1.LabelSelectorAsSelector(in.Selector)
	if err != nil {
		return fmt.Errorf("invalid label selector in scale status: %w", err)
	}
	out.Selector = selector.String()
	return nil
}

// Convert_v1_ScaleStatus_To_scheme_ScaleStatus converts an autoscaling/v1
// ScaleStatus to the internal one, parsing its string selector.
func Convert_v1_ScaleStatus_To_scheme_ScaleStatus(in *v1.ScaleStatus, out *scheme.ScaleStatus, s conversion.Scope) error {
	out.Replicas = in.Replicas
	out.Selector = nil
	if in.Selector == "" {
		return nil
	}
	selector, err := metav1.ParseToLabelSelector(in.Selector)
	if err != nil {
		return fmt.Errorf("failed to parse selector %q: %w", in.Selector, err)
	}
	out.Selector = selector
	return nil
}
