//go:build purego || !amd64

package kernels

// peakProbe returns nil: there is no peak probe for this architecture.
func peakProbe(Path) (func(int), float64) { return nil, 0 }
