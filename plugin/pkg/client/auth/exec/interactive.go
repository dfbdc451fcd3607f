package exec

import (
	"errors"
	"fmt"

	"github.com/kubeclient/client-go/tools/clientcmd/api"
)

// interactiveFor decides whether the plugin gets standard input. It is
// evaluated on every plugin run because whether stdin is a terminal can
// change over the life of a process.
func interactiveFor(mode api.ExecInteractiveMode, stdinUnavailable bool, unavailableMessage string, stdinIsTerminal func() bool) (bool, error) {
	switch mode {
	case api.NeverExecInteractiveMode:
		return false, nil
	case api.IfAvailableExecInteractiveMode:
		return !stdinUnavailable && stdinIsTerminal(), nil
	case api.AlwaysExecInteractiveMode:
		if !stdinIsTerminal() {
			return false, errors.New("standard input is not a terminal")
		}
		if stdinUnavailable {
			if unavailableMessage != "" {
				return false, fmt.Errorf("standard input is unavailable: %s", unavailableMessage)
			}
			return false, errors.New("standard input is unavailable")
		}
		return true, nil
	default:
		return false, fmt.Errorf("unknown interactiveMode: %q", mode)
	}
}
