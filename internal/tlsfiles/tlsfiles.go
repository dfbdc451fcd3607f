// Package tlsfiles fills in TLS data (root certificates, client certificate,
// client key) from the files that name it. It is internal to the module and
// the one implementation behind rest.LoadTLSFiles, the exec plugin's
// cluster description in rest, and transport's TLS setup.
//
// Layer: a leaf; it imports only the standard library.
package tlsfiles

import "os"

// Field is one piece of TLS data and the file it may be read from.
type Field struct {
	Data *[]byte
	File string
}

// Load fills each field whose data is empty from its file, when it names
// one, in order. At the first file that cannot be read it sets that field's
// data to an empty, non-nil slice and returns the error; later fields are
// left as they are.
func Load(fields ...Field) error {
	for _, f := range fields {
		data, err := Read(*f.Data, f.File)
		*f.Data = data
		if err != nil {
			return err
		}
	}
	return nil
}

// Read returns data when it is non-empty, else the content of file when one
// is named, else nil. A file that cannot be read yields an empty, non-nil
// slice and the error.
func Read(data []byte, file string) ([]byte, error) {
	switch {
	case len(data) > 0:
		return data, nil
	case file == "":
		return nil, nil
	}
	content, err := os.ReadFile(file)
	if err != nil {
		return []byte{}, err
	}
	return content, nil
}
