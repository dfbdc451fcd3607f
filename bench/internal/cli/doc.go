// Package cli is the command line of the benchmark's measuring programs
// (cmd/informerbench, and crbench in its own module): flags, the fake
// server in a child process, one measurement per process printed as a
// JSON line, and the table that run.sh prints from those lines.
package cli
