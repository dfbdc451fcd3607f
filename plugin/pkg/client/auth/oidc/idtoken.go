package oidc

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// idTokenValid reports whether the JWT idToken is still valid for at least
// expiryDelta, judging by its "exp" claim. The signature is not checked:
// that is the API server's job.
func idTokenValid(now func() time.Time, idToken string) (bool, error) {
	parts := strings.Split(idToken, ".")
	if len(parts) != 3 {
		return false, errors.New("ID Token is not a valid JWT")
	}
	payload, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return false, fmt.Errorf("ID Token payload is not base64url: %v", err)
	}
	var claims struct {
		Expiry *json.Number `json:"exp"`
	}
	if err := json.Unmarshal(payload, &claims); err != nil {
		return false, fmt.Errorf("parsing claims: %v", err)
	}
	exp, err := unixTime(claims.Expiry)
	if err != nil {
		return false, fmt.Errorf("parsing claims: %v", err)
	}
	return now().Add(expiryDelta).Before(exp), nil
}

// unixTime turns a NumericDate (seconds since the epoch, integer or
// fractional) into a time. A missing claim is the zero time, which is
// always in the past.
func unixTime(n *json.Number) (time.Time, error) {
	if n == nil {
		return time.Time{}, nil
	}
	if i, err := n.Int64(); err == nil {
		return time.Unix(i, 0), nil
	}
	f, err := n.Float64()
	if err != nil {
		return time.Time{}, fmt.Errorf("exp claim %q is not a number", n.String())
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return time.Time{}, fmt.Errorf("exp claim %q is not a finite number", n.String())
	}
	return time.Unix(int64(f), 0), nil
}
