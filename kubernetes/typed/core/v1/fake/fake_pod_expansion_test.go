package fake

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	cgtesting "github.com/kubeclient/client-go/testing"
)

func TestGetLogsAnswersFromReactors(t *testing.T) {
	failure := errors.New("log backend down")
	tests := []struct {
		name    string
		reactor cgtesting.ReactionFunc // nil: no reactor for pods/log
		logs    string
		wantErr string
		errIs   error
	}{
		{name: "no reactor", logs: "fake logs"},
		{name: "reactor text", reactor: func(cgtesting.Action) (bool, runtime.Object, error) {
			return true, &runtime.Unknown{Raw: []byte("line 1\nline 2\n")}, nil
		}, logs: "line 1\nline 2\n"},
		{name: "reactor declines", reactor: func(cgtesting.Action) (bool, runtime.Object, error) {
			return false, nil, nil
		}, logs: "fake logs"},
		{name: "reactor error", reactor: func(cgtesting.Action) (bool, runtime.Object, error) {
			return true, nil, failure
		}, wantErr: failure.Error(), errIs: failure},
		{name: "reactor answers another type", reactor: func(cgtesting.Action) (bool, runtime.Object, error) {
			return true, &corev1.Pod{}, nil
		}, wantErr: "fake Pods.GetLogs expected reactor to return *runtime.Unknown, got *v1.Pod"},
		{name: "reactor answers nil", reactor: func(cgtesting.Action) (bool, runtime.Object, error) {
			return true, nil, nil
		}, wantErr: "expected reactor to return *runtime.Unknown, got <nil>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &cgtesting.Fake{}
			var seen *corev1.PodLogOptions
			f.AddReactor("get", "pods", func(a cgtesting.Action) (bool, runtime.Object, error) {
				if a.GetSubresource() == "log" {
					seen, _ = a.(cgtesting.GenericAction).GetValue().(*corev1.PodLogOptions)
				}
				return false, nil, nil
			})
			if tc.reactor != nil {
				f.AddReactor("get", "pods/log", tc.reactor)
			}
			pods := (&FakeCoreV1{Fake: f}).Pods("ns")
			req := pods.GetLogs("p", &corev1.PodLogOptions{Container: "app"})
			body, err := req.Stream(context.Background())
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Stream error = %v, want one containing %q", err, tc.wantErr)
				}
				if tc.errIs != nil && !errors.Is(err, tc.errIs) {
					t.Errorf("Stream error %v does not wrap the reactor's error", err)
				}
				if _, err := req.DoRaw(context.Background()); err == nil {
					t.Error("DoRaw succeeded where Stream failed")
				}
				return
			}
			if err != nil {
				t.Fatalf("Stream: %v", err)
			}
			defer body.Close()
			got, err := io.ReadAll(body)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.logs {
				t.Errorf("logs = %q, want %q", got, tc.logs)
			}
			if seen == nil || seen.Container != "app" {
				t.Errorf("the action carried log options %+v, want container app", seen)
			}
			actions := f.Actions()
			if len(actions) != 1 || actions[0].GetVerb() != "get" || actions[0].GetSubresource() != "log" || actions[0].GetNamespace() != "ns" {
				t.Errorf("recorded actions = %v", actions)
			}
		})
	}
}
