// Package widgets is a user's module that generates its clients with
// kubeclient's generator run as a Go tool.
package widgets
