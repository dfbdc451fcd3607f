// Package model loads Kubernetes API packages from Go source and turns their
// comment tags into a generator-neutral description: groups, versions,
// resources with their verbs and extended methods, and every Go type with its
// fields, JSON names and list/map markers.
//
// Generators (clients, apply configurations, and later listers, informers and
// fakes) consume a *Universe and never parse source themselves.
package model
