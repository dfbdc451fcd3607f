// Package compat holds one test file per bullet of the README's
// "Differences from client-go". Each test is a small program written the
// way a client-go user writes one (retry loops with short timeouts, the
// Until helpers, fake clocks and fake watchers, custom ListWatches, code
// that treats an Error event as fatal, printing a config while debugging)
// and asserts that the program still does what it did on client-go
// v0.37.2, or, where the README says a behaviour changes, exactly the
// change the README states.
//
// A difference added to the README gets a file here. The package has no
// code of its own; it runs in make test with the library's unit tests.
package compat
