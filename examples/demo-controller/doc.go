// Command demo-controller is the project's end-to-end demonstration: a small
// controller built from a SharedInformerFactory, a rate-limited workqueue,
// Lease-based leader election and an event recorder, driven by a scripted
// scenario against a real cluster.
//
// The inputs are ConfigMaps labelled demo.kubeclient.io/managed=true whose
// "replicas" key asks for a number of replicas. For each input the controller
// keeps a derived ConfigMap "<name>-status", owned by the input through an
// ownerReference, that records the replicas it accepted, and it records an
// Event on the input for every change it makes. When an input goes away the
// controller removes its status object itself, because a bare control plane
// (kube-apiserver and etcd only) runs no garbage collector.
//
// The scenario creates three inputs, updates one, creates an invalid one,
// deletes one, and waits each time until the controller has caught up. Every
// action is printed on one line and a summary closes the run.
//
//	make demo                                   # against a local control plane
//	go run ./examples/demo-controller -kubeconfig ~/.kube/config -namespace demo
package main
