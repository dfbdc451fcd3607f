// Command kube-apiserver is the real Kubernetes API server, built from the
// official k8s.io/kubernetes module for the integration suite.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

func main() {
	os.Exit(cli.Run(app.NewAPIServerCommand()))
}
