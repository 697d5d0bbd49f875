//go:build !purego

package simd

import "golang.org/x/sys/cpu"

const purego = false

const archName = "arm64"

func detect() {
	// Advanced SIMD on ARMv8 always includes double precision.
	supported[NEON] = cpu.ARM64.HasASIMD
}
