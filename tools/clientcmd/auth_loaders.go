package clientcmd

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"golang.org/x/term"

	clientauth "github.com/kubeclient/client-go/tools/auth"
)

// AuthLoader produces the credentials kept at a path.
type AuthLoader interface {
	// LoadAuth returns the credentials for the auth file at path, by
	// whatever means the loader chooses.
	LoadAuth(path string) (*clientauth.Info, error)
}

// defaultAuthLoader reads an auth file and nothing else.
type defaultAuthLoader struct{}

func (*defaultAuthLoader) LoadAuth(path string) (*clientauth.Info, error) {
	return clientauth.LoadFromFile(path)
}

// NewDefaultAuthLoader returns an AuthLoader that only reads the auth file.
func NewDefaultAuthLoader() AuthLoader {
	return &defaultAuthLoader{}
}

// PromptingAuthLoader is an AuthLoader that asks for a username and password
// when the auth file does not exist, and saves the answer there.
type PromptingAuthLoader struct {
	reader io.Reader
}

// NewPromptingAuthLoader returns a PromptingAuthLoader that reads the
// username from reader.
func NewPromptingAuthLoader(reader io.Reader) *PromptingAuthLoader {
	return &PromptingAuthLoader{reader: reader}
}

// LoadAuth reads the auth file at path; when it does not exist, it prompts
// and writes the answer to path (mode 0600) as JSON.
func (a *PromptingAuthLoader) LoadAuth(path string) (*clientauth.Info, error) {
	if _, err := os.Stat(path); os.IsNotExist(err) {
		prompted, err := a.Prompt()
		if err != nil {
			return nil, err
		}
		info := *prompted
		data, err := json.Marshal(info)
		if err != nil {
			return &info, err
		}
		return &info, os.WriteFile(path, data, 0600)
	}
	return clientauth.LoadFromFile(path)
}

// Prompt asks for a username, read from the loader's reader, and a
// password, read without echo from the terminal on standard input.
func (a *PromptingAuthLoader) Prompt() (*clientauth.Info, error) {
	user, err := readPromptAnswer("Username", a.reader, true)
	if err != nil {
		return nil, err
	}
	password, err := readPromptAnswer("Password", nil, false)
	if err != nil {
		return nil, err
	}
	return &clientauth.Info{User: user, Password: password}, nil
}

// readPromptAnswer prints a prompt for field on standard output and reads a
// word from r when show is set, or a password from the terminal otherwise.
// Without a terminal a password cannot be read.
func readPromptAnswer(field string, r io.Reader, show bool) (string, error) {
	fmt.Printf("Please enter %s: ", field)
	if show {
		var result string
		_, err := fmt.Fscan(r, &result)
		return result, err
	}
	fd := int(os.Stdin.Fd())
	if !term.IsTerminal(fd) {
		return "", fmt.Errorf("error reading input for %s", field)
	}
	data, err := term.ReadPassword(fd)
	return string(data), err
}
