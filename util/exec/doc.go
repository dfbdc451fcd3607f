// Package exec describes how a finished remote or local command reports its
// exit status, so callers can tell "the command ran and exited non-zero"
// apart from "the command could not be run".
package exec
