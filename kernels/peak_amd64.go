//go:build !purego

package kernels

// peakProbe returns the peak probe of path p and the flops of one of its
// iterations, or nil.
func peakProbe(p Path) (func(int), float64) {
	switch p {
	case AVX512:
		return fmaPeakAVX512, 384
	case AVX2:
		return fmaPeakAVX2, 96
	}
	return nil, 0
}
