package decoders

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// The readers below do what the UnmarshalJSON methods of a few very common
// types do, without their round trip through encoding/json. Each writes
// what the method writes, and returns ErrMismatch where the method fails
// (with the same partial write, if any), so the reference decoder, which
// calls the method, ends in the same state.

// Time decodes as metav1.Time.UnmarshalJSON: null is the zero time, a
// string is parsed as RFC 3339 into local time.
func Time(l *Lexer, v *metav1.Time) error {
	return parseTime(l, &v.Time, time.RFC3339)
}

// MicroTime decodes as metav1.MicroTime.UnmarshalJSON.
func MicroTime(l *Lexer, v *metav1.MicroTime) error {
	return parseTime(l, &v.Time, metav1.RFC3339Micro)
}

func parseTime(l *Lexer, v *time.Time, layout string) error {
	switch l.Next() {
	case 'n':
		l.SkipNull()
		*v = time.Time{}
		return nil
	case '"':
		t, err := time.Parse(layout, string(l.str()))
		if err != nil {
			return ErrMismatch
		}
		*v = t.Local()
		return nil
	}
	return ErrMismatch
}

// FieldsV1 decodes as metav1.FieldsV1.UnmarshalJSON: null leaves v
// alone, any other value is copied raw into v.Raw. With decode sharing set on the lexer, equal
// values share one copy.
func FieldsV1(l *Lexer, v *metav1.FieldsV1) error {
	if l.Next() == 'n' {
		l.SkipNull()
		return nil
	}
	raw := l.Raw()
	if l.st.Share != nil {
		v.Raw = l.st.Share.Bytes(raw)
		return nil
	}
	v.Raw = append(v.Raw[0:0], raw...)
	return nil
}

// IntOrString decodes as intstr.IntOrString.UnmarshalJSON: a string sets
// the string form; anything else first selects the integer form, then
// takes an int32 number (null leaves the value).
func IntOrString(l *Lexer, v *intstr.IntOrString) error {
	if l.Next() == '"' {
		v.Type = intstr.String
		v.StrVal = l.st.Interner.FromBytes(l.str())
		return nil
	}
	v.Type = intstr.Int
	return Int(l, &v.IntVal)
}
