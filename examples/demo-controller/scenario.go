package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/util/retry"
)

// stepTimeout bounds how long the scenario waits for the controller to catch
// up after one action.
const stepTimeout = 30 * time.Second

// scenario drives the demo: it changes the inputs through the API server and
// checks, through the API server too, that the controller reacted.
type scenario struct {
	client    kubernetes.Interface
	namespace string
	out       io.Writer
}

func runScenario(ctx context.Context, client kubernetes.Interface, namespace string, out io.Writer) error {
	s := &scenario{client: client, namespace: namespace, out: out}
	if err := s.removeLeftovers(ctx); err != nil {
		return err
	}
	for _, step := range []struct {
		what string
		do   func(context.Context) error
	}{
		{"create inputs", func(ctx context.Context) error {
			inputs := []struct{ name, replicas string }{{"alpha", "1"}, {"beta", "2"}, {"gamma", "3"}}
			for _, in := range inputs {
				if err := s.createInput(ctx, in.name, in.replicas); err != nil {
					return err
				}
			}
			for _, in := range inputs {
				if err := s.waitStatus(ctx, in.name, in.replicas); err != nil {
					return err
				}
			}
			return nil
		}},
		{"scale beta", func(ctx context.Context) error {
			if err := s.setReplicas(ctx, "beta", "5"); err != nil {
				return err
			}
			return s.waitStatus(ctx, "beta", "5")
		}},
		{"tamper with gamma-status", func(ctx context.Context) error {
			err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
				status, err := s.configMaps().Get(ctx, StatusName("gamma"), metav1.GetOptions{})
				if err != nil {
					return err
				}
				status.Data[ReplicasKey] = "99"
				_, err = s.configMaps().Update(ctx, status, metav1.UpdateOptions{})
				return err
			})
			if err != nil {
				return err
			}
			s.logf("demo: overwrote gamma-status replicas with 99 behind the controller's back")
			return s.waitStatus(ctx, "gamma", "3")
		}},
		{"invalid input", func(ctx context.Context) error {
			if err := s.createInput(ctx, "delta", "lots"); err != nil {
				return err
			}
			return s.waitEvent(ctx, "delta", ReasonInvalidReplicas)
		}},
		{"delete alpha", func(ctx context.Context) error {
			if err := s.deleteInput(ctx, "alpha"); err != nil {
				return err
			}
			return s.waitStatusGone(ctx, "alpha")
		}},
		{"clean up", func(ctx context.Context) error {
			for _, name := range []string{"beta", "gamma", "delta"} {
				if err := s.deleteInput(ctx, name); err != nil {
					return err
				}
			}
			for _, name := range []string{"beta", "gamma"} {
				if err := s.waitStatusGone(ctx, name); err != nil {
					return err
				}
			}
			return nil
		}},
	} {
		if err := step.do(ctx); err != nil {
			return fmt.Errorf("scenario step %q: %w", step.what, err)
		}
	}
	s.logf("demo: scenario complete")
	return nil
}

func (s *scenario) configMaps() interface {
	Get(context.Context, string, metav1.GetOptions) (*corev1.ConfigMap, error)
	Create(context.Context, *corev1.ConfigMap, metav1.CreateOptions) (*corev1.ConfigMap, error)
	Update(context.Context, *corev1.ConfigMap, metav1.UpdateOptions) (*corev1.ConfigMap, error)
	Delete(context.Context, string, metav1.DeleteOptions) error
	List(context.Context, metav1.ListOptions) (*corev1.ConfigMapList, error)
} {
	return s.client.CoreV1().ConfigMaps(s.namespace)
}

func (s *scenario) logf(format string, args ...any) { fmt.Fprintf(s.out, format+"\n", args...) }

// removeLeftovers deletes inputs and status objects of an earlier run that
// did not finish, so each run starts from nothing.
func (s *scenario) removeLeftovers(ctx context.Context) error {
	for _, selector := range []string{ManagedLabel + "=true", DerivedFromLabel} {
		list, err := s.configMaps().List(ctx, metav1.ListOptions{LabelSelector: selector})
		if err != nil {
			return fmt.Errorf("listing leftovers: %w", err)
		}
		for _, cm := range list.Items {
			if err := s.configMaps().Delete(ctx, cm.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				return err
			}
			s.logf("demo: removed leftover %s from an earlier run", cm.Name)
		}
	}
	return nil
}

func (s *scenario) createInput(ctx context.Context, name, replicas string) error {
	_, err := s.configMaps().Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{ManagedLabel: "true"}},
		Data:       map[string]string{ReplicasKey: replicas},
	}, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("creating input %s: %w", name, err)
	}
	s.logf("demo: created input %s (replicas=%s)", name, replicas)
	return nil
}

func (s *scenario) setReplicas(ctx context.Context, name, replicas string) error {
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		input, err := s.configMaps().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		input.Data[ReplicasKey] = replicas
		_, err = s.configMaps().Update(ctx, input, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		return fmt.Errorf("updating input %s: %w", name, err)
	}
	s.logf("demo: updated input %s (replicas=%s)", name, replicas)
	return nil
}

func (s *scenario) deleteInput(ctx context.Context, name string) error {
	if err := s.configMaps().Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
		return fmt.Errorf("deleting input %s: %w", name, err)
	}
	s.logf("demo: deleted input %s", name)
	return nil
}

// waitStatus waits until the status object of input reports replicas.
func (s *scenario) waitStatus(ctx context.Context, input, replicas string) error {
	started := time.Now()
	err := s.poll(ctx, func(ctx context.Context) (bool, error) {
		status, err := s.configMaps().Get(ctx, StatusName(input), metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		return status.Data[ReplicasKey] == replicas, nil
	})
	if err != nil {
		return fmt.Errorf("waiting for %s to report replicas=%s: %w", StatusName(input), replicas, err)
	}
	s.logf("demo: verified %s reports replicas=%s (%v)", StatusName(input), replicas, since(started))
	return nil
}

// waitStatusGone waits until the status object of input is deleted.
func (s *scenario) waitStatusGone(ctx context.Context, input string) error {
	started := time.Now()
	err := s.poll(ctx, func(ctx context.Context) (bool, error) {
		_, err := s.configMaps().Get(ctx, StatusName(input), metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return true, nil
		}
		return false, err
	})
	if err != nil {
		return fmt.Errorf("waiting for %s to be deleted: %w", StatusName(input), err)
	}
	s.logf("demo: verified %s is gone (%v)", StatusName(input), since(started))
	return nil
}

// waitEvent waits until an event with reason is recorded on the input.
func (s *scenario) waitEvent(ctx context.Context, input, reason string) error {
	started := time.Now()
	selector := fields.Set{"involvedObject.name": input, "reason": reason}.AsSelector().String()
	var message string
	err := s.poll(ctx, func(ctx context.Context) (bool, error) {
		events, err := s.client.CoreV1().Events(s.namespace).List(ctx, metav1.ListOptions{FieldSelector: selector})
		if err != nil || len(events.Items) == 0 {
			return false, err
		}
		message = events.Items[0].Type + " " + strconv.Quote(events.Items[0].Message)
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("waiting for a %s event on %s: %w", reason, input, err)
	}
	s.logf("demo: verified event %s on %s: %s (%v)", reason, input, message, since(started))
	return nil
}

func (s *scenario) poll(ctx context.Context, condition wait.ConditionWithContextFunc) error {
	return wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, stepTimeout, true, condition)
}

func since(t time.Time) time.Duration { return time.Since(t).Round(time.Millisecond) }
