package exec

import "strconv"

// ExitError mirrors the parts of os.ProcessState that callers inspect after a
// command ends: whether it exited and with which status.
type ExitError interface {
	String() string
	Error() string
	Exited() bool
	ExitStatus() int
}

// CodeExitError is an ExitError built from an error and the process exit code.
type CodeExitError struct {
	Err  error
	Code int
}

var _ ExitError = CodeExitError{}

// Error returns the message of the wrapped error.
func (e CodeExitError) Error() string {
	if e.Err == nil {
		return "command terminated with exit code " + strconv.Itoa(e.Code)
	}
	return e.Err.Error()
}

// String is the same as Error.
func (e CodeExitError) String() string { return e.Error() }

// Exited always reports true: a code was observed, so the process ended.
func (e CodeExitError) Exited() bool { return true }

// ExitStatus returns the exit code.
func (e CodeExitError) ExitStatus() int { return e.Code }

// Unwrap returns the wrapped error.
func (e CodeExitError) Unwrap() error { return e.Err }
