// Package crd is an end-to-end example of the project's code generator run
// on a user's own custom resource types: apis/stable/v1 holds hand-written
// types, generated/ holds the clientset, fake clientset, listers, informers
// and apply configurations made from them by hack/update-codegen.sh, and the
// tests of this package drive that generated code.
package crd
