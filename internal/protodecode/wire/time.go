package wire

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// timestamp reads a metav1.Timestamp message: seconds (1) and nanos (2).
// The message a Time is written as, its seconds alone, is read first.
func timestamp(b []byte) (seconds int64, nanos int32, err error) {
	if len(b) > 1 && b[0] == 1<<3|wireVarint {
		if v, next := uvarint(b, 1); next == len(b) {
			return int64(v), 0, nil
		}
	}
	r := NewReader(b)
	for r.More() {
		num, typ, err := r.Key()
		if err != nil {
			return 0, 0, err
		}
		switch num {
		case 1:
			err = SetInt(&r, typ, &seconds)
		case 2:
			err = SetInt(&r, typ, &nanos)
		default:
			err = r.Skip()
		}
		if err != nil {
			return 0, 0, err
		}
	}
	return seconds, nanos, nil
}

// Time decodes a metav1.Time as its Unmarshal does: an empty message is
// the zero time, else whole seconds in the local zone.
func Time(r Reader, v *metav1.Time) error {
	b := r.b
	if len(b) == 0 {
		v.Time = time.Time{}
		return nil
	}
	s, _, err := timestamp(b)
	if err != nil {
		return err
	}
	v.Time = time.Unix(s, 0).Local()
	return nil
}

// MicroTime decodes a metav1.MicroTime as its Unmarshal does: an empty
// message is the zero time, else the time truncated to microseconds in
// the local zone.
func MicroTime(r Reader, v *metav1.MicroTime) error {
	b := r.b
	if len(b) == 0 {
		v.Time = time.Time{}
		return nil
	}
	s, n, err := timestamp(b)
	if err != nil {
		return err
	}
	v.Time = time.Unix(s, int64(time.Duration(n).Truncate(time.Microsecond))).Local()
	return nil
}
