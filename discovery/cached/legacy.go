package memory

import (
	"github.com/kubeclient/client-go/discovery"
	"github.com/kubeclient/client-go/discovery/cached/memory"
)

// NewMemCacheClient is deprecated: use memory.NewMemCacheClient.
func NewMemCacheClient(delegate discovery.DiscoveryInterface) discovery.CachedDiscoveryInterface {
	return memory.NewMemCacheClient(delegate)
}

// ErrCacheNotFound is deprecated: use memory.ErrCacheNotFound.
var ErrCacheNotFound = memory.ErrCacheNotFound
