// Package controllerruntime holds differential tests of this library under
// controller-runtime v0.25.3, through the drop-in: the objects
// controller-runtime's clients and cache return are compared with what
// controller-runtime's own serializer (its scheme's codec factory, with
// apimachinery's decoders) makes of the same bytes. It is a module of its
// own so that controller-runtime stays out of the library's graph; run.sh
// writes the drop-in and runs the tests.
package controllerruntime
