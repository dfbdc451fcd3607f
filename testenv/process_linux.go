package testenv

import "syscall"

// childAttributes puts a server in its own process group and asks the
// kernel to kill it if the test binary dies without stopping it.
func childAttributes() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
