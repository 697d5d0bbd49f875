//go:build !purego

#include "textflag.h"

// Batched Jacobi kernels (see jacobi.go and jacobi_arm64.go): the loops
// over the pairs of a batch run here, so that a step of a Jacobi sweep
// costs one call. Within a pair the code is that of dot and rot in
// neon_arm64.s: 8 elements (four vectors) per iteration, then vectors of
// 2, then at most one element with scalar instructions, so nothing past
// the n elements of a vector is read or written.

// FADD Vd.2D, Vn.2D, Vm.2D
#define JFADD2D(m, n, d) WORD $(0x4E60D400 | ((m)<<16) | ((n)<<5) | (d))
// FMUL Vd.2D, Vn.2D, Vm.2D
#define JFMUL2D(m, n, d) WORD $(0x6E60DC00 | ((m)<<16) | ((n)<<5) | (d))
// FADDP Dd, Vn.2D: Dd = Vn[0] + Vn[1]
#define JFADDP2D(n, d) WORD $(0x7E70D800 | ((n)<<5) | (d))

// PAIRPTRS loads the next two offsets from (R10) (advancing it) and
// turns them into pointers R0 and R1 into x (R8).
#define PAIRPTRS MOVD.P 8(R10), R0; MOVD.P 8(R10), R1; ADD R0<<3, R8, R0; ADD R1<<3, R8, R1

// func rotPairsNEON(x []float64, n int, o []int, cs []float64)
TEXT ·rotPairsNEON(SB), NOSPLIT, $0-80
	MOVD x_base+0(FP), R8
	MOVD n+24(FP), R9
	MOVD o_base+32(FP), R10
	MOVD cs_base+56(FP), R11
	MOVD cs_len+64(FP), R12
	LSR  $1, R12
	CBZ  R12, done

pair:
	PAIRPTRS
	FMOVD.P 8(R11), F30
	FMOVD.P 8(R11), F31
	VDUP    V30.D[0], V30.D2
	VDUP    V31.D[0], V31.D2
	MOVD    R9, R2
	CMP     $8, R2
	BLT     twos

loop:
	VLD1   (R0), [V0.D2, V1.D2, V2.D2, V3.D2]
	VLD1   (R1), [V4.D2, V5.D2, V6.D2, V7.D2]
	JFMUL2D(31, 4, 16)
	JFMUL2D(31, 5, 17)
	JFMUL2D(31, 6, 18)
	JFMUL2D(31, 7, 19)
	JFMUL2D(30, 4, 20)
	JFMUL2D(30, 5, 21)
	JFMUL2D(30, 6, 22)
	JFMUL2D(30, 7, 23)
	VFMLA  V30.D2, V0.D2, V16.D2
	VFMLA  V30.D2, V1.D2, V17.D2
	VFMLA  V30.D2, V2.D2, V18.D2
	VFMLA  V30.D2, V3.D2, V19.D2
	VFMLS  V31.D2, V0.D2, V20.D2
	VFMLS  V31.D2, V1.D2, V21.D2
	VFMLS  V31.D2, V2.D2, V22.D2
	VFMLS  V31.D2, V3.D2, V23.D2
	VST1.P [V16.D2, V17.D2, V18.D2, V19.D2], 64(R0)
	VST1.P [V20.D2, V21.D2, V22.D2, V23.D2], 64(R1)
	SUB    $8, R2
	CMP    $8, R2
	BGE    loop

twos:
	CMP    $2, R2
	BLT    tail
	VLD1   (R0), [V0.D2]
	VLD1   (R1), [V4.D2]
	JFMUL2D(31, 4, 16)
	JFMUL2D(30, 4, 20)
	VFMLA  V30.D2, V0.D2, V16.D2
	VFMLS  V31.D2, V0.D2, V20.D2
	VST1.P [V16.D2], 16(R0)
	VST1.P [V20.D2], 16(R1)
	SUB    $2, R2
	B      twos

tail:
	CBZ    R2, next
	FMOVD  (R0), F0
	FMOVD  (R1), F4
	FMULD  F31, F4, F16      // s*v
	FMADDD F30, F16, F0, F16 // + c*u
	FMULD  F30, F4, F20      // c*v
	FMSUBD F31, F20, F0, F20 // - s*u
	FMOVD  F16, (R0)
	FMOVD  F20, (R1)

next:
	SUB  $1, R12
	CBNZ R12, pair

done:
	RET
