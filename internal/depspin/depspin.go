// Package depspin keeps the chosen dependencies in go.mod while the packages
// that use them are being written. It is removed once every one is imported
// by real code.
package depspin

import (
	_ "github.com/go-logr/logr"
	_ "github.com/google/gnostic-models/openapiv2"
	_ "github.com/spf13/pflag"
	_ "golang.org/x/net/http2"
	_ "golang.org/x/oauth2"
	_ "golang.org/x/term"
	_ "golang.org/x/time/rate"
	_ "k8s.io/api/core/v1"
	_ "k8s.io/apimachinery/pkg/api/errors"
	_ "k8s.io/apimachinery/pkg/runtime/serializer"
	_ "k8s.io/apimachinery/pkg/runtime/serializer/cbor"
	_ "k8s.io/apimachinery/pkg/util/managedfields"
	_ "k8s.io/klog/v2"
	_ "k8s.io/kube-openapi/pkg/spec3"
	_ "k8s.io/utils/clock/testing"
	_ "k8s.io/utils/ptr"
	_ "sigs.k8s.io/structured-merge-diff/v6/typed"
	_ "sigs.k8s.io/yaml"
)
