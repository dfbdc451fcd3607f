// Package pager splits large list calls into pages of a bounded size and
// stitches the pages back together, falling back to one full list when the
// server expires the continue token midway.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package pager
