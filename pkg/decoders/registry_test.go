package decoders

import (
	"errors"
	"strings"
	"sync"
	"testing"
)

// registered is a type with a hand-written decoder registered below, as a
// generated file registers its package's objects.
type registered struct {
	Name string `json:"name"`
}

func decodeRegistered(l *Lexer, v *registered) error {
	if ok, err := l.OpenStruct(); !ok {
		return err
	}
	for {
		key, ok := l.Key()
		if !ok {
			return nil
		}
		var err error
		switch string(key) {
		case "name":
			err = String(l, &v.Name)
		default:
			l.Skip()
		}
		if err != nil {
			return err
		}
	}
}

// unregistered has no decoder.
type unregistered struct{ Name string }

func init() { RegisterJSON(decodeRegistered) }

func TestDecodeJSONFindsRegisteredTypesOnly(t *testing.T) {
	for _, tc := range []struct {
		name        string
		data        string
		obj         any
		wantHandled bool
		wantErr     error
		wantName    string
	}{
		{name: "registered", data: `{"name":"a","other":[1]}`, obj: &registered{}, wantHandled: true, wantName: "a"},
		{name: "registered, type mismatch", data: `{"name":1}`, obj: &registered{}, wantHandled: true, wantErr: ErrMismatch},
		{name: "registered, syntax error", data: `{"name":`, obj: &registered{}, wantHandled: true, wantErr: ErrSyntax},
		{name: "registered, nil pointer", data: `{}`, obj: (*registered)(nil), wantHandled: true, wantErr: ErrMismatch},
		{name: "value, not pointer", data: `{}`, obj: registered{}},
		{name: "unregistered", data: `{"Name":"a"}`, obj: &unregistered{}},
		{name: "nil", data: `{}`, obj: nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			handled, err := UnmarshalJSON([]byte(tc.data), tc.obj)
			if handled != tc.wantHandled || !errors.Is(err, tc.wantErr) {
				t.Fatalf("UnmarshalJSON = %v, %v; want %v, %v", handled, err, tc.wantHandled, tc.wantErr)
			}
			if got := RegisteredJSON(tc.obj); got != tc.wantHandled {
				t.Errorf("RegisteredJSON = %v, want %v", got, tc.wantHandled)
			}
			if r, ok := tc.obj.(*registered); ok && r != nil && r.Name != tc.wantName {
				t.Errorf("name %q, want %q", r.Name, tc.wantName)
			}
		})
	}
}

func TestRegisterJSONTwicePanics(t *testing.T) {
	for _, tc := range []struct {
		name     string
		register func()
		want     string
	}{
		{"same type again", func() { RegisterJSON(decodeRegistered) }, "registered twice"},
		{"nil decoder", func() { RegisterJSON[unregistered](nil) }, "nil decoder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.Contains(s, tc.want) {
					t.Fatalf("recovered %v, want a panic saying %q", r, tc.want)
				}
			}()
			tc.register()
		})
	}
	if RegisteredJSON(&unregistered{}) {
		t.Fatal("a refused registration was recorded")
	}
}

// TestDecodeJSONConcurrently decodes through the registry from several
// goroutines (run with -race).
func TestDecodeJSONConcurrently(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 100 {
				var v registered
				if handled, err := UnmarshalJSON([]byte(`{"name":"x"}`), &v); !handled || err != nil || v.Name != "x" {
					t.Errorf("goroutine %d: %v, %v, %q", i, handled, err, v.Name)
					return
				}
			}
		})
	}
	wg.Wait()
}
