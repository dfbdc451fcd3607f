package testenv

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// process is one server binary the harness started. It runs in its own
// process group so that stop reaches anything it forked. A goroutine started
// by startProcess waits for the exit and then closes done; err is valid once
// done is closed.
type process struct {
	name    string
	cmd     *exec.Cmd
	logPath string
	logFile *os.File
	done    chan struct{}
	err     error
}

// startProcess runs bin with args, sending stdout and stderr to logPath.
func startProcess(name, bin string, args []string, logPath string) (*process, error) {
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(logFile, "# %s %q\n", bin, args)
	cmd := exec.Command(bin, args...)
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.SysProcAttr = childAttributes()
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	p := &process{name: name, cmd: cmd, logPath: logPath, logFile: logFile, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		logFile.Close()
		close(p.done)
	}()
	return p, nil
}

// exited reports whether the process has ended.
func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// stop sends SIGTERM to the process group, waits up to grace for the
// process to end, then sends SIGKILL and waits for the exit.
func (p *process) stop(grace time.Duration) {
	if p.exited() {
		return
	}
	pgid := p.cmd.Process.Pid
	syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-p.done:
		return
	case <-time.After(grace):
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
	<-p.done
}

// logTail returns the last n lines of the process's log.
func (p *process) logTail(n int) string {
	data, err := os.ReadFile(p.logPath)
	if err != nil {
		return fmt.Sprintf("(cannot read %s: %v)", p.logPath, err)
	}
	return tail(data, n)
}

// tail returns the last n lines of data.
func tail(data []byte, n int) string {
	data = bytes.TrimRight(data, "\n")
	if n <= 0 {
		return ""
	}
	start := len(data)
	for range n {
		idx := bytes.LastIndexByte(data[:start], '\n')
		if idx < 0 {
			return string(data)
		}
		start = idx
	}
	return string(data[start+1:])
}
