package remotecommand

import (
	"encoding/json"
	"io"
)

// TerminalSize is the width and height of a terminal, in character cells.
type TerminalSize struct {
	Width  uint16
	Height uint16
}

// TerminalSizeQueue yields terminal sizes as the local terminal is resized.
type TerminalSizeQueue interface {
	// Next returns the new terminal size after the terminal has been resized. It returns nil when
	// monitoring has been stopped.
	Next() *TerminalSize
}

// sendResizes encodes every size from queue as one JSON object on w until
// the queue reports nil or a write fails. The caller owns the goroutine.
func sendResizes(queue TerminalSizeQueue, w io.Writer) {
	enc := json.NewEncoder(w)
	for {
		size := queue.Next()
		if size == nil {
			return
		}
		if err := enc.Encode(size); err != nil {
			return
		}
	}
}
