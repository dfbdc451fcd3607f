//go:build unix && !linux

package testenv

import "syscall"

// childAttributes puts a server in its own process group.
func childAttributes() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
