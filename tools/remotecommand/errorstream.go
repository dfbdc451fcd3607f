package remotecommand

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	remotecommandconsts "k8s.io/apimachinery/pkg/util/remotecommand"

	"github.com/kubeclient/client-go/util/exec"
)

// errorDecoder turns the full contents of the error stream into the
// session's result.
type errorDecoder func(message []byte) error

// decodeTextError is the v1..v3 format: any text is an error message.
func decodeTextError(message []byte) error {
	if len(message) == 0 {
		return nil
	}
	return fmt.Errorf("error executing remote command: %s", message)
}

// decodeStatusError is the v4/v5 format: a JSON metav1.Status. A failure with
// reason NonZeroExitCode becomes an exec.CodeExitError carrying the code;
// any other failure is its message.
func decodeStatusError(message []byte) error {
	if len(message) == 0 {
		return nil
	}
	var status metav1.Status
	if err := json.Unmarshal(message, &status); err != nil {
		return fmt.Errorf("error stream protocol error: %v in %q", err, string(message))
	}
	switch {
	case status.Status == metav1.StatusSuccess:
		return nil
	case status.Status != metav1.StatusFailure:
		return errors.New("error stream protocol error: unknown error")
	case status.Reason != remotecommandconsts.NonZeroExitCodeReason:
		return errors.New(status.Message)
	case status.Details == nil:
		return errors.New("error stream protocol error: details must be set")
	}
	return exitCodeError(status.Details.Causes)
}

// exitCodeError turns the first exit-code cause into an exec.CodeExitError.
func exitCodeError(causes []metav1.StatusCause) error {
	isExitCode := func(c metav1.StatusCause) bool { return c.Type == remotecommandconsts.ExitCodeCauseType }
	i := slices.IndexFunc(causes, isExitCode)
	if i < 0 {
		return fmt.Errorf("error stream protocol error: no %s cause given", remotecommandconsts.ExitCodeCauseType)
	}
	code, err := strconv.ParseUint(causes[i].Message, 10, 8)
	if err != nil {
		return fmt.Errorf("error stream protocol error: invalid exit code value %q", causes[i].Message)
	}
	return exec.CodeExitError{Err: fmt.Errorf("command terminated with exit code %d", code), Code: int(code)}
}

// watchErrorStream reads r to its end in a goroutine and delivers the decoded
// result on the returned channel, which receives exactly one value.
func watchErrorStream(r io.Reader, decode errorDecoder) <-chan error {
	result := make(chan error, 1)
	go func() {
		message, err := io.ReadAll(r)
		if err != nil && err != io.EOF {
			result <- fmt.Errorf("error reading from error stream: %w", err)
			return
		}
		result <- decode(message)
	}()
	return result
}
