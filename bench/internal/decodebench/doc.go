// Package decodebench holds a benchmark of protobuf decoding alone: pages of
// recorded pods decoded by client-go's generated Unmarshal and by this
// module's generated decoders (internal/protodecode), away from the
// transport and the cache that the informer workloads also measure.
//
//	go test -run '^$' -bench . ./internal/decodebench
package decodebench
