//go:build !linux

package main

// physicalMemory returns 0: the memory is not read on this system, and
// -max-memory defaults to fallbackMaxMemory.
func physicalMemory() uint64 { return 0 }
