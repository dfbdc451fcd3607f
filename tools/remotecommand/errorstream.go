package remotecommand

import (
	"encoding/json"
	"fmt"
	"io"
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
// reason NonZeroExitCode becomes an exec.CodeExitError carrying the code.
func decodeStatusError(message []byte) error {
	if len(message) == 0 {
		return nil
	}
	var status metav1.Status
	if err := json.Unmarshal(message, &status); err != nil {
		return fmt.Errorf("error stream protocol error: %v in %q", err, string(message))
	}
	switch status.Status {
	case metav1.StatusSuccess:
		return nil
	case metav1.StatusFailure:
		if status.Reason == remotecommandconsts.NonZeroExitCodeReason {
			if status.Details == nil {
				return fmt.Errorf("error stream protocol error: details must be set")
			}
			for _, cause := range status.Details.Causes {
				if cause.Type != remotecommandconsts.ExitCodeCauseType {
					continue
				}
				code, err := strconv.ParseUint(cause.Message, 10, 8)
				if err != nil {
					return fmt.Errorf("error stream protocol error: invalid exit code value %q", cause.Message)
				}
				return exec.CodeExitError{
					Err:  fmt.Errorf("command terminated with exit code %d", code),
					Code: int(code),
				}
			}
			return fmt.Errorf("error stream protocol error: no %s cause given", remotecommandconsts.ExitCodeCauseType)
		}
		return fmt.Errorf("error executing remote command: %s", status.Message)
	default:
		return fmt.Errorf("error stream protocol error: unknown status %q", status.Status)
	}
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
