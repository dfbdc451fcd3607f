package auth

import (
	"context"
	"slices"
	"testing"

	authenticationv1 "k8s.io/api/authentication/v1"

	"github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/test/integration/framework"
)

// whoAmI asks the server, through a SelfSubjectReview, which user cfg
// authenticates as.
func whoAmI(t *testing.T, cfg *rest.Config) (authenticationv1.UserInfo, error) {
	t.Helper()
	client := framework.RESTClientFor(t, cfg, authenticationv1.SchemeGroupVersion, framework.ContentTypeJSON)
	review := &authenticationv1.SelfSubjectReview{}
	err := client.Post().Resource("selfsubjectreviews").Body(&authenticationv1.SelfSubjectReview{}).
		Do(context.Background()).Into(review)
	return review.Status.UserInfo, err
}

// expectUser fails t unless cfg authenticates as user with all of groups.
func expectUser(t *testing.T, cfg *rest.Config, user string, groups ...string) {
	t.Helper()
	info, err := whoAmI(t, cfg)
	if err != nil {
		t.Fatalf("SelfSubjectReview: %v", err)
	}
	if info.Username != user {
		t.Errorf("authenticated as %q, want %q", info.Username, user)
	}
	for _, g := range groups {
		if !slices.Contains(info.Groups, g) {
			t.Errorf("groups %v lack %q", info.Groups, g)
		}
	}
}
