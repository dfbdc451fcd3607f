package restclient

import (
	"context"
	"net/http"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/test/integration/framework"
)

func TestStatusErrors(t *testing.T) {
	for _, contentType := range framework.ContentTypes {
		t.Run(contentType, func(t *testing.T) {
			ctx := context.Background()
			ns := controlPlane.Namespace(t)
			client := framework.RESTClientFor(t, controlPlane.AdminConfig(), corev1.SchemeGroupVersion, contentType)
			cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "only"}, Data: map[string]string{"a": "1"}}

			checkStatus := func(what string, err error, is func(error) bool, reason metav1.StatusReason, code int32) {
				t.Helper()
				if err == nil {
					t.Errorf("%s: no error, want %s", what, reason)
					return
				}
				if !is(err) {
					t.Errorf("%s: %v (%T) not recognised as %s", what, err, err, reason)
				}
				if got := apierrors.ReasonForError(err); got != reason {
					t.Errorf("%s: reason %q, want %q", what, got, reason)
				}
				status, ok := err.(apierrors.APIStatus)
				if !ok {
					t.Errorf("%s: %T does not carry a metav1.Status", what, err)
					return
				}
				if s := status.Status(); s.Code != code || s.Details == nil || s.Details.Kind != "configmaps" {
					t.Errorf("%s: status code %d details %+v, want %d for configmaps", what, s.Code, s.Details, code)
				}
			}

			err := client.Get().Namespace(ns).Resource("configmaps").Name("missing").Do(ctx).Error()
			checkStatus("get missing", err, apierrors.IsNotFound, metav1.StatusReasonNotFound, http.StatusNotFound)

			created := &corev1.ConfigMap{}
			if err := client.Post().Namespace(ns).Resource("configmaps").Body(cm).Do(ctx).Into(created); err != nil {
				t.Fatalf("create: %v", err)
			}
			err = client.Post().Namespace(ns).Resource("configmaps").Body(cm).Do(ctx).Error()
			checkStatus("create twice", err, apierrors.IsAlreadyExists, metav1.StatusReasonAlreadyExists, http.StatusConflict)

			// Two writers start from the same version; the second loses.
			first, second := created.DeepCopy(), created.DeepCopy()
			first.Data["a"] = "2"
			second.Data["a"] = "3"
			if err := client.Put().Namespace(ns).Resource("configmaps").Name("only").Body(first).Do(ctx).Error(); err != nil {
				t.Fatalf("first update: %v", err)
			}
			err = client.Put().Namespace(ns).Resource("configmaps").Name("only").Body(second).Do(ctx).Error()
			checkStatus("stale update", err, apierrors.IsConflict, metav1.StatusReasonConflict, http.StatusConflict)
			if apierrors.IsAlreadyExists(err) || apierrors.IsNotFound(err) {
				t.Errorf("stale update error %v also matches another reason", err)
			}

			// Invalid objects come back as Invalid with field causes.
			bad := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "Not_A_Valid_Name"}}
			err = client.Post().Namespace(ns).Resource("configmaps").Body(bad).Do(ctx).Error()
			if !apierrors.IsInvalid(err) {
				t.Errorf("create with bad name: %v, want Invalid", err)
			} else if s := err.(apierrors.APIStatus).Status(); s.Details == nil || len(s.Details.Causes) == 0 || s.Details.Causes[0].Field != "metadata.name" {
				t.Errorf("Invalid error details %+v, want a cause on metadata.name", s.Details)
			}
		})
	}
}
