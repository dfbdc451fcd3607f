package certificate

// Counter counts events, such as failed certificate renewals.
type Counter interface {
	Inc()
}

// Gauge records the remaining lifetime of the certificate each time it is
// updated.
type Gauge interface {
	Set(float64)
}

// Histogram records observations, such as how many seconds a certificate was
// in use before it was rotated.
type Histogram interface {
	Observe(float64)
}
