package fake

import (
	"context"
	"fmt"

	autoscalingapi "k8s.io/api/autoscaling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeclient/client-go/scale"
	"github.com/kubeclient/client-go/testing"
)

// FakeScaleClient is a fake scale.ScalesGetter. Add reactors to its Fake to
// choose the answers; Actions lists what was called.
type FakeScaleClient struct {
	testing.Fake
}

var _ scale.ScalesGetter = (*FakeScaleClient)(nil)

// Scales implements scale.ScalesGetter.
func (f *FakeScaleClient) Scales(namespace string) scale.ScaleInterface {
	return &fakeNamespacedScales{fake: &f.Fake, namespace: namespace}
}

// fakeNamespacedScales records the calls made for one namespace.
type fakeNamespacedScales struct {
	fake      *testing.Fake
	namespace string
}

func (f *fakeNamespacedScales) Get(ctx context.Context, resource schema.GroupResource, name string, opts metav1.GetOptions) (*autoscalingapi.Scale, error) {
	return asScale(f.fake.Invokes(testing.NewGetSubresourceAction(resource.WithVersion(""), f.namespace, "scale", name), &autoscalingapi.Scale{}))
}

func (f *fakeNamespacedScales) Update(ctx context.Context, resource schema.GroupResource, scale *autoscalingapi.Scale, opts metav1.UpdateOptions) (*autoscalingapi.Scale, error) {
	return asScale(f.fake.Invokes(testing.NewUpdateSubresourceAction(resource.WithVersion(""), "scale", f.namespace, scale), &autoscalingapi.Scale{}))
}

func (f *fakeNamespacedScales) Patch(ctx context.Context, gvr schema.GroupVersionResource, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions) (*autoscalingapi.Scale, error) {
	return asScale(f.fake.Invokes(testing.NewPatchSubresourceAction(gvr, f.namespace, name, pt, data, "scale"), &autoscalingapi.Scale{}))
}

// asScale narrows what a reactor returned to a Scale.
func asScale(obj runtime.Object, err error) (*autoscalingapi.Scale, error) {
	if err != nil {
		return nil, err
	}
	if obj == nil {
		return nil, nil
	}
	s, ok := obj.(*autoscalingapi.Scale)
	if !ok {
		return nil, fmt.Errorf("fake scale client: reactor returned %T, want *v1.Scale", obj)
	}
	return s, nil
}
