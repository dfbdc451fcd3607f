// Package clientgen generates the typed client packages
// (<clientset>/typed/<group>/<version>): one group client per version, one
// thin wrapper over gentype per resource, extended methods from
// +genclient:method tags, and empty expansion interfaces for resources that
// have no hand-written expansion.
package clientgen
