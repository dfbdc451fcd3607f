// Package pemfile reads PEM files for util/keyutil and util/cert: one
// read-then-parse step, so that every "from file" function of those
// packages reports a missing file and bad content the same way.
package pemfile

import (
	"fmt"
	"os"
)

// Parse reads the file at name and returns what parse makes of its
// content. An error reading the file is returned unchanged (os.IsNotExist
// works on it); a parse error is wrapped as "<context> <name>: <error>".
func Parse[T any](name, context string, parse func([]byte) (T, error)) (T, error) {
	var zero T
	data, err := os.ReadFile(name)
	if err != nil {
		return zero, err
	}
	parsed, err := parse(data)
	if err != nil {
		return zero, fmt.Errorf("%s %s: %v", context, name, err)
	}
	return parsed, nil
}
