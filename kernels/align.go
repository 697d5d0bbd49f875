package kernels

import "unsafe"

// alignOffset returns how many elements to skip in s so that the rest
// starts on a 64-byte boundary.
func alignOffset(s []float64) int {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	return int((64-p%64)%64) / 8
}
