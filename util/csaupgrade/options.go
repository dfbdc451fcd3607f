package csaupgrade

// Option tunes an upgrade.
type Option func(*options)

// options are the settings Option functions fill in.
type options struct {
	// subresource restricts the upgrade to managers of that subresource;
	// "" is the main resource.
	subresource string
}

// Subresource makes the upgrade apply to the managers of subresource s
// (such as "status") instead of those of the main resource.
func Subresource(s string) Option {
	return func(o *options) {
		o.subresource = s
	}
}
