// Package homedir finds the current user's home directory the way
// kubeconfig loading expects it, including Windows' several candidate
// environment variables.
package homedir
