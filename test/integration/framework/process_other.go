//go:build unix && !linux

package framework

import "syscall"

// childAttributes puts a server in its own process group.
func childAttributes() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
