package cache

import (
	"net/url"

	"k8s.io/apimachinery/pkg/labels"
)

func labelsSelector(s string) (labels.Selector, error) { return labels.Parse(s) }

func everything() labels.Selector { return labels.Everything() }

func parseQuery(q string) (url.Values, error) { return url.ParseQuery(q) }
