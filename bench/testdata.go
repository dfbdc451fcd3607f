package bench

import "embed"

// Testdata holds the responses bench/record captured from a real
// kube-apiserver (see testdata/index.json); package fixture builds the
// benchmark's objects from them.
//
//go:embed testdata/*.json testdata/*.pb
var Testdata embed.FS
