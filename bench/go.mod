module github.com/kubeclient/client-go/bench

go 1.26.0

replace github.com/kubeclient/client-go => ../

require github.com/kubeclient/client-go v0.0.0-00010101000000-000000000000

require k8s.io/client-go v0.37.2 // indirect
