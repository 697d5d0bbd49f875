//go:build !purego

package vec

import "github.com/moments-go/moments/internal/simd"

func registerArch() {
	table.Register(simd.NEON, &Ops{
		Dot: dotNEON, Axpy: axpyNEON, Scal: scalNEON, Asum: asumNEON,
		SumSq: sumSqNEON, MaxAbs: maxAbsNEON, IndexAbs: indexAbsNEON,
		Rot: rotNEON, GemvN: gemvNNEON, GemvT: gemvTNEON,
	})
}
