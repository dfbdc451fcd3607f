package clientcmd

import (
	"errors"
	"fmt"
	"strings"

	utilerrors "k8s.io/apimachinery/pkg/util/errors"
)

// Errors reported when a config cannot be used.
var (
	ErrNoContext   = errors.New("no context chosen")
	ErrEmptyConfig = NewEmptyConfigError("no configuration has been provided, try setting KUBERNETES_MASTER environment variable")
	// ErrEmptyCluster reports a cluster entry with nothing set.
	ErrEmptyCluster = errors.New("cluster has no server defined")
)

// NewEmptyConfigError returns an error with message for which IsEmptyConfig
// is true.
func NewEmptyConfigError(message string) error {
	return &emptyConfigError{message: message}
}

// emptyConfigError reports that no configuration was supplied at all.
type emptyConfigError struct {
	message string
}

func (e *emptyConfigError) Error() string { return e.message }

// contextNotFoundError reports a context name that the config does not have.
type contextNotFoundError struct {
	ContextName string
}

func (e *contextNotFoundError) Error() string {
	return fmt.Sprintf("context was not found for specified context: %v", e.ContextName)
}

// IsContextNotFound reports whether err says that the chosen context does not
// exist, or that no context was chosen.
func IsContextNotFound(err error) bool {
	if err == nil {
		return false
	}
	if _, ok := err.(*contextNotFoundError); ok || err == ErrNoContext {
		return true
	}
	return strings.Contains(err.Error(), "context was not found for specified context")
}

// IsEmptyConfig reports whether err says that no configuration was supplied,
// either directly or as the only error of a configuration-invalid error.
func IsEmptyConfig(err error) bool {
	if invalid, ok := err.(errConfigurationInvalid); ok {
		if len(invalid) != 1 {
			return false
		}
		err = invalid[0]
	}
	_, ok := err.(*emptyConfigError)
	return ok
}

// errConfigurationInvalid collects every problem validation found. It is a
// utilerrors.Aggregate.
type errConfigurationInvalid []error

var (
	_ error                = errConfigurationInvalid{}
	_ utilerrors.Aggregate = errConfigurationInvalid{}
)

// newErrConfigurationInvalid returns nil for no errors and an
// errConfigurationInvalid otherwise.
func newErrConfigurationInvalid(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	return errConfigurationInvalid(errs)
}

// Error prefixes the aggregated messages with "invalid configuration".
func (e errConfigurationInvalid) Error() string {
	return fmt.Sprintf("invalid configuration: %v", utilerrors.NewAggregate(e).Error())
}

// Errors returns the collected errors.
func (e errConfigurationInvalid) Errors() []error { return e }

// Is reports whether any collected error, or any error nested in a collected
// aggregate, matches target.
func (e errConfigurationInvalid) Is(target error) bool {
	return e.any(func(err error) bool { return errors.Is(err, target) })
}

func (e errConfigurationInvalid) any(match func(error) bool) bool {
	for _, err := range e {
		switch err := err.(type) {
		case errConfigurationInvalid:
			if err.any(match) {
				return true
			}
		case utilerrors.Aggregate:
			for _, nested := range err.Errors() {
				if match(nested) {
					return true
				}
			}
		default:
			if match(err) {
				return true
			}
		}
	}
	return false
}

// IsConfigurationInvalid reports whether err came from validating a config.
func IsConfigurationInvalid(err error) bool {
	switch err.(type) {
	case *contextNotFoundError, errConfigurationInvalid:
		return true
	}
	return IsContextNotFound(err)
}
