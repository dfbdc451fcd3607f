// Package fakegen generates the in-memory clientset used in tests: the
// <clientset>/fake package (a Clientset answering from a testing.ObjectTracker:
// NewSimpleClientset and NewClientset as client-go's, and the addition
// NewServerLikeClientset over the server-like field-managed tracker; its
// scheme and AddToScheme) and one <clientset>/typed/<group>/<version>/fake
// package per group version, whose resource clients are thin wrappers over
// gentype's FakeClient types plus the +genclient:method extended methods.
//
// Hand-written fake expansions (fake_<kind>_expansion.go) live next to the
// generated files and carry no generated header, so -clean keeps them.
package fakegen
