package clientcmd

import (
	"fmt"
	"net/url"
	"strconv"
	"time"
)

// ParseTimeout parses a request timeout: a non-negative integer number of
// seconds, or a Go duration such as "1s", "2m" or "3h".
func ParseTimeout(duration string) (time.Duration, error) {
	if seconds, err := strconv.ParseInt(duration, 10, 64); err == nil && seconds >= 0 {
		return time.Duration(seconds) * time.Second, nil
	}
	if d, err := time.ParseDuration(duration); err == nil {
		return d, nil
	}
	return 0, fmt.Errorf("Invalid timeout value. Timeout must be a single integer in seconds, or an integer followed by a corresponding time unit (e.g. 1s | 2m | 3h)")
}

// parseClusterProxyURL parses a cluster's proxy-url, accepting the http, https and
// socks5 schemes only.
func parseClusterProxyURL(proxyURL string) (*url.URL, error) {
	u, err := url.Parse(proxyURL)
	if err != nil {
		return nil, fmt.Errorf("could not parse: %v", proxyURL)
	}
	switch u.Scheme {
	case "http", "https", "socks5":
		return u, nil
	default:
		return nil, fmt.Errorf("unsupported scheme %q, must be http, https, or socks5", u.Scheme)
	}
}
