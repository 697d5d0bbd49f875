//go:build !purego

package simd

import "golang.org/x/sys/cpu"

const purego = false

const archName = "amd64"

func detect() {
	supported[AVX2] = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	// The AVX-512 kernels use AVX-512F only, plus AVX2/FMA in their
	// tails; x/sys/cpu reports AVX-512F only when the OS saves the ZMM
	// state.
	supported[AVX512] = supported[AVX2] && cpu.X86.HasAVX512F
}
