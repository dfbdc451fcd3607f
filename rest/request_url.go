package rest

import (
	"net/url"
	"path"
	"strings"
)

// URL returns the URL the request would be sent to now. Check Error to know
// whether it is valid.
func (r *Request) URL() *url.URL {
	p := r.pathPrefix
	if r.namespaceSet && r.namespace != "" {
		p = path.Join(p, "namespaces", r.namespace)
	}
	if r.resource != "" {
		p = path.Join(p, strings.ToLower(r.resource))
	}
	// path.Join drops a trailing slash; only join when something follows so
	// that a prefix ending in "/" (AbsPath("/x/")) keeps it.
	if r.resourceName != "" || r.subpath != "" || r.subresource != "" {
		p = path.Join(p, r.resourceName, r.subresource, r.subpath)
	}

	u := &url.URL{}
	if r.c.base != nil {
		*u = *r.c.base
	}
	u.Path = p

	query := url.Values{}
	for name, values := range r.params {
		query[name] = append([]string(nil), values...)
	}
	if r.timeout != 0 {
		query.Set("timeout", r.timeout.String())
	}
	u.RawQuery = query.Encode()
	return u
}

// host is the host of r.URL(), without building the URL: the size
// metrics of every request are labelled with it.
func (r *Request) host() string {
	if r.c.base != nil {
		return r.c.base.Host
	}
	return ""
}

// metricURLTemplate returns the URL with its variable parts replaced by
// placeholders ("{namespace}", "{name}", "{value}" for every query value),
// so latency metrics are not partitioned per object. A path outside /api and
// /apis becomes "/{prefix}".
func (r *Request) metricURLTemplate() url.URL {
	shadow := *r
	if len(r.params) > 0 {
		shadow.params = make(url.Values, len(r.params))
		for name := range r.params {
			shadow.params[name] = []string{"{value}"}
		}
	}
	u := shadow.URL()

	full := u.Path
	basePath := ""
	rel := full
	if r.c.base != nil && strings.Contains(full, r.c.base.Path) {
		basePath = r.c.base.Path
		rel = strings.TrimPrefix(full, basePath)
		if !strings.HasPrefix(rel, "/") {
			rel = "/" + rel
		}
	}
	segments := strings.Split(rel, "/")
	// segments[0] is the empty string before the leading slash.
	if len(segments) <= 2 {
		return *u
	}

	var first int // index of the resource (or "namespaces") segment
	switch segments[1] {
	case "api":
		first = 3
	case "apis":
		first = 4
	default:
		u.Path = "/{prefix}"
		u.RawQuery = ""
		return *u
	}

	isStatusLike := func(s string) bool { return s == "status" || s == "finalize" }
	switch rest := len(segments) - first; {
	case rest == 2:
		segments[first+1] = "{name}"
	case rest == 3:
		if isStatusLike(segments[first+2]) {
			segments[first+1] = "{name}"
		} else {
			segments[first+1] = "{namespace}"
		}
	case rest >= 4:
		segments[first+1] = "{namespace}"
		if !isStatusLike(segments[first+3]) {
			segments[first+3] = "{name}"
		}
	}
	u.Path = path.Join(basePath, path.Join(segments...))
	return *u
}
