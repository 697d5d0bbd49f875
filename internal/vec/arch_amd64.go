//go:build !purego

package vec

import "github.com/moments-go/moments/internal/simd"

func registerArch() {
	table.Register(simd.AVX2, &Ops{
		Dot: dotAVX2, Axpy: axpyAVX2, Scal: scalAVX2, Asum: asumAVX2,
		SumSq: sumSqAVX2, MaxAbs: maxAbsAVX2, IndexAbs: indexAbsAVX2,
		Rot: rotAVX2, GemvN: gemvNAVX2, GemvT: gemvTAVX2,
	})
	table.Register(simd.AVX512, &Ops{
		Dot: dotAVX512, Axpy: axpyAVX512, Scal: scalAVX512, Asum: asumAVX512,
		SumSq: sumSqAVX512, MaxAbs: maxAbsAVX512, IndexAbs: indexAbsAVX512,
		Rot: rotAVX512, GemvN: gemvNAVX512, GemvT: gemvTAVX512,
	})
}
