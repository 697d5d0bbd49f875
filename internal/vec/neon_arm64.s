//go:build !purego

#include "textflag.h"

// NEON vector kernels for arm64 (128-bit vectors, two float64 lanes).
// The reductions take 16 elements (eight vectors, eight accumulators)
// per iteration and the updates 8, then single vectors of 2 elements,
// then at most one element with scalar instructions, so nothing past
// len(x) is ever read or written. The Go prototypes and the scalar loops
// they compute are in stubs_arm64.go.
//
// The Go assembler has no mnemonics for several Advanced SIMD
// floating-point instructions; the macros below encode them with WORD
// from the ARMv8-A reference (arguments are register numbers: d the
// destination, n and m the sources). In scalar code F<n> is the low lane
// of V<n>; a scalar write clears the high lane.

// FADD Vd.2D, Vn.2D, Vm.2D
#define VFADD2D(m, n, d) WORD $(0x4E60D400 | ((m)<<16) | ((n)<<5) | (d))
// FMUL Vd.2D, Vn.2D, Vm.2D
#define VFMUL2D(m, n, d) WORD $(0x6E60DC00 | ((m)<<16) | ((n)<<5) | (d))
// FABS Vd.2D, Vn.2D
#define VFABS2D(n, d) WORD $(0x4EE0F800 | ((n)<<5) | (d))
// FMAX Vd.2D, Vn.2D, Vm.2D (NaN if either lane is NaN)
#define VFMAX2D(m, n, d) WORD $(0x4E60F400 | ((m)<<16) | ((n)<<5) | (d))
// FCMEQ Vd.2D, Vn.2D, Vm.2D (all ones where equal, false for NaN)
#define VFCMEQ2D(m, n, d) WORD $(0x4E60E400 | ((m)<<16) | ((n)<<5) | (d))
// FADDP Dd, Vn.2D: Dd = Vn[0] + Vn[1]
#define FADDP2D(n, d) WORD $(0x7E70D800 | ((n)<<5) | (d))
// FMAXP Dd, Vn.2D: Dd = max(Vn[0], Vn[1]) (NaN if either is NaN)
#define FMAXP2D(n, d) WORD $(0x7E70F800 | ((n)<<5) | (d))

#define ZERO8 \
	VEOR V0.B16, V0.B16, V0.B16; VEOR V1.B16, V1.B16, V1.B16; \
	VEOR V2.B16, V2.B16, V2.B16; VEOR V3.B16, V3.B16, V3.B16; \
	VEOR V4.B16, V4.B16, V4.B16; VEOR V5.B16, V5.B16, V5.B16; \
	VEOR V6.B16, V6.B16, V6.B16; VEOR V7.B16, V7.B16, V7.B16

// SUM8 adds V0-V7 into V0.
#define SUM8 \
	VFADD2D(1, 0, 0); VFADD2D(3, 2, 2); VFADD2D(5, 4, 4); VFADD2D(7, 6, 6); \
	VFADD2D(2, 0, 0); VFADD2D(6, 4, 4); VFADD2D(4, 0, 0)

// LOAD16 loads 16 elements from (R0) into V16-V23 and advances R0.
#define LOAD16 \
	VLD1.P 64(R0), [V16.D2, V17.D2, V18.D2, V19.D2]; \
	VLD1.P 64(R0), [V20.D2, V21.D2, V22.D2, V23.D2]

// func dotNEON(x, y []float64) float64
TEXT ·dotNEON(SB), NOSPLIT, $0-56
	MOVD x_base+0(FP), R0
	MOVD x_len+8(FP), R2
	MOVD y_base+24(FP), R1
	ZERO8
	CMP  $16, R2
	BLT  pairs

loop:
	LOAD16
	VLD1.P 64(R1), [V24.D2, V25.D2, V26.D2, V27.D2]
	VLD1.P 64(R1), [V28.D2, V29.D2, V30.D2, V31.D2]
	VFMLA  V24.D2, V16.D2, V0.D2
	VFMLA  V25.D2, V17.D2, V1.D2
	VFMLA  V26.D2, V18.D2, V2.D2
	VFMLA  V27.D2, V19.D2, V3.D2
	VFMLA  V28.D2, V20.D2, V4.D2
	VFMLA  V29.D2, V21.D2, V5.D2
	VFMLA  V30.D2, V22.D2, V6.D2
	VFMLA  V31.D2, V23.D2, V7.D2
	SUB    $16, R2
	CMP    $16, R2
	BGE    loop

pairs:
	CMP    $2, R2
	BLT    reduce
	VLD1.P 16(R0), [V16.D2]
	VLD1.P 16(R1), [V24.D2]
	VFMLA  V24.D2, V16.D2, V0.D2
	SUB    $2, R2
	B      pairs

reduce:
	SUM8
	FADDP2D(0, 0)
	CBZ    R2, done
	FMOVD  (R0), F16
	FMOVD  (R1), F24
	FMADDD F24, F0, F16, F0

done:
	FMOVD F0, ret+48(FP)
	RET

// func axpyNEON(alpha float64, x, y []float64)
TEXT ·axpyNEON(SB), NOSPLIT, $0-56
	FMOVD alpha+0(FP), F31
	VDUP  V31.D[0], V31.D2
	MOVD  x_base+8(FP), R0
	MOVD  x_len+16(FP), R2
	MOVD  y_base+32(FP), R1
	CMP   $8, R2
	BLT   pairs

loop:
	VLD1.P 64(R0), [V0.D2, V1.D2, V2.D2, V3.D2]
	VLD1   (R1), [V4.D2, V5.D2, V6.D2, V7.D2]
	VFMLA  V31.D2, V0.D2, V4.D2
	VFMLA  V31.D2, V1.D2, V5.D2
	VFMLA  V31.D2, V2.D2, V6.D2
	VFMLA  V31.D2, V3.D2, V7.D2
	VST1.P [V4.D2, V5.D2, V6.D2, V7.D2], 64(R1)
	SUB    $8, R2
	CMP    $8, R2
	BGE    loop

pairs:
	CMP    $2, R2
	BLT    tail
	VLD1.P 16(R0), [V0.D2]
	VLD1   (R1), [V4.D2]
	VFMLA  V31.D2, V0.D2, V4.D2
	VST1.P [V4.D2], 16(R1)
	SUB    $2, R2
	B      pairs

tail:
	CBZ    R2, done
	FMOVD  (R0), F0
	FMOVD  (R1), F4
	FMADDD F31, F4, F0, F4
	FMOVD  F4, (R1)

done:
	RET

// func scalNEON(alpha float64, x []float64)
TEXT ·scalNEON(SB), NOSPLIT, $0-32
	FMOVD alpha+0(FP), F31
	VDUP  V31.D[0], V31.D2
	MOVD  x_base+8(FP), R0
	MOVD  x_len+16(FP), R2
	CMP   $8, R2
	BLT   pairs

loop:
	VLD1   (R0), [V0.D2, V1.D2, V2.D2, V3.D2]
	VFMUL2D(31, 0, 0)
	VFMUL2D(31, 1, 1)
	VFMUL2D(31, 2, 2)
	VFMUL2D(31, 3, 3)
	VST1.P [V0.D2, V1.D2, V2.D2, V3.D2], 64(R0)
	SUB    $8, R2
	CMP    $8, R2
	BGE    loop

pairs:
	CMP    $2, R2
	BLT    tail
	VLD1   (R0), [V0.D2]
	VFMUL2D(31, 0, 0)
	VST1.P [V0.D2], 16(R0)
	SUB    $2, R2
	B      pairs

tail:
	CBZ   R2, done
	FMOVD (R0), F0
	FMULD F31, F0, F0
	FMOVD F0, (R0)

done:
	RET

// func asumNEON(x []float64) float64
TEXT ·asumNEON(SB), NOSPLIT, $0-32
	MOVD x_base+0(FP), R0
	MOVD x_len+8(FP), R2
	ZERO8
	CMP  $16, R2
	BLT  pairs

loop:
	LOAD16
	VFABS2D(16, 16)
	VFABS2D(17, 17)
	VFABS2D(18, 18)
	VFABS2D(19, 19)
	VFABS2D(20, 20)
	VFABS2D(21, 21)
	VFABS2D(22, 22)
	VFABS2D(23, 23)
	VFADD2D(16, 0, 0)
	VFADD2D(17, 1, 1)
	VFADD2D(18, 2, 2)
	VFADD2D(19, 3, 3)
	VFADD2D(20, 4, 4)
	VFADD2D(21, 5, 5)
	VFADD2D(22, 6, 6)
	VFADD2D(23, 7, 7)
	SUB  $16, R2
	CMP  $16, R2
	BGE  loop

pairs:
	CMP    $2, R2
	BLT    reduce
	VLD1.P 16(R0), [V16.D2]
	VFABS2D(16, 16)
	VFADD2D(16, 0, 0)
	SUB    $2, R2
	B      pairs

reduce:
	SUM8
	FADDP2D(0, 0)
	CBZ   R2, done
	FMOVD (R0), F16
	FABSD F16, F16
	FADDD F16, F0

done:
	FMOVD F0, ret+24(FP)
	RET

// func sumSqNEON(x []float64, scale float64) float64
TEXT ·sumSqNEON(SB), NOSPLIT, $0-40
	MOVD  x_base+0(FP), R0
	MOVD  x_len+8(FP), R2
	FMOVD scale+24(FP), F31
	VDUP  V31.D[0], V31.D2
	ZERO8
	CMP   $16, R2
	BLT   pairs

loop:
	LOAD16
	VFMUL2D(31, 16, 16)
	VFMUL2D(31, 17, 17)
	VFMUL2D(31, 18, 18)
	VFMUL2D(31, 19, 19)
	VFMUL2D(31, 20, 20)
	VFMUL2D(31, 21, 21)
	VFMUL2D(31, 22, 22)
	VFMUL2D(31, 23, 23)
	VFMLA V16.D2, V16.D2, V0.D2
	VFMLA V17.D2, V17.D2, V1.D2
	VFMLA V18.D2, V18.D2, V2.D2
	VFMLA V19.D2, V19.D2, V3.D2
	VFMLA V20.D2, V20.D2, V4.D2
	VFMLA V21.D2, V21.D2, V5.D2
	VFMLA V22.D2, V22.D2, V6.D2
	VFMLA V23.D2, V23.D2, V7.D2
	SUB   $16, R2
	CMP   $16, R2
	BGE   loop

pairs:
	CMP    $2, R2
	BLT    reduce
	VLD1.P 16(R0), [V16.D2]
	VFMUL2D(31, 16, 16)
	VFMLA  V16.D2, V16.D2, V0.D2
	SUB    $2, R2
	B      pairs

reduce:
	SUM8
	FADDP2D(0, 0)
	CBZ    R2, done
	FMOVD  (R0), F16
	FMULD  F31, F16, F16
	FMADDD F16, F0, F16, F0

done:
	FMOVD F0, ret+32(FP)
	RET

// func maxAbsNEON(x []float64) float64
//
// The accumulators start at 0 and take FMAX with |x[i]|; FMAX (unlike
// FMAXNM) returns NaN when either operand is NaN, so a NaN anywhere
// reaches the result.
TEXT ·maxAbsNEON(SB), NOSPLIT, $0-32
	MOVD x_base+0(FP), R0
	MOVD x_len+8(FP), R2
	ZERO8
	CMP  $16, R2
	BLT  pairs

loop:
	LOAD16
	VFABS2D(16, 16)
	VFABS2D(17, 17)
	VFABS2D(18, 18)
	VFABS2D(19, 19)
	VFABS2D(20, 20)
	VFABS2D(21, 21)
	VFABS2D(22, 22)
	VFABS2D(23, 23)
	VFMAX2D(16, 0, 0)
	VFMAX2D(17, 1, 1)
	VFMAX2D(18, 2, 2)
	VFMAX2D(19, 3, 3)
	VFMAX2D(20, 4, 4)
	VFMAX2D(21, 5, 5)
	VFMAX2D(22, 6, 6)
	VFMAX2D(23, 7, 7)
	SUB  $16, R2
	CMP  $16, R2
	BGE  loop

pairs:
	CMP    $2, R2
	BLT    reduce
	VLD1.P 16(R0), [V16.D2]
	VFABS2D(16, 16)
	VFMAX2D(16, 0, 0)
	SUB    $2, R2
	B      pairs

reduce:
	VFMAX2D(1, 0, 0)
	VFMAX2D(3, 2, 2)
	VFMAX2D(5, 4, 4)
	VFMAX2D(7, 6, 6)
	VFMAX2D(2, 0, 0)
	VFMAX2D(6, 4, 4)
	VFMAX2D(4, 0, 0)
	FMAXP2D(0, 0)
	CBZ   R2, done
	FMOVD (R0), F16
	FABSD F16, F16
	FMAXD F16, F0, F0

done:
	FMOVD F0, ret+24(FP)
	RET

// func indexAbsNEON(x []float64, m float64) int
//
// Blocks of 8 are tested with FCMEQ; the first block with a match (and
// the last 0-7 elements) is scanned one element at a time.
TEXT ·indexAbsNEON(SB), NOSPLIT, $0-40
	MOVD  x_base+0(FP), R0
	MOVD  x_len+8(FP), R2
	FMOVD m+24(FP), F31
	VDUP  V31.D[0], V31.D2
	MOVD  $0, R3             // index of (R0)

block:
	CMP    $8, R2
	BLT    scalar
	VLD1.P 64(R0), [V0.D2, V1.D2, V2.D2, V3.D2]
	VFABS2D(0, 0)
	VFABS2D(1, 1)
	VFABS2D(2, 2)
	VFABS2D(3, 3)
	VFCMEQ2D(31, 0, 0)
	VFCMEQ2D(31, 1, 1)
	VFCMEQ2D(31, 2, 2)
	VFCMEQ2D(31, 3, 3)
	VORR   V1.B16, V0.B16, V0.B16
	VORR   V3.B16, V2.B16, V2.B16
	VORR   V2.B16, V0.B16, V0.B16
	VMOV   V0.D[0], R4
	VMOV   V0.D[1], R5
	ORR    R5, R4, R4
	CBNZ   R4, hit
	ADD    $8, R3
	SUB    $8, R2
	B      block

hit:
	SUB $64, R0              // rescan this block

scalar:
	CBZ     R2, none
	FMOVD.P 8(R0), F0
	FABSD   F0, F0
	FCMPD   F31, F0
	BEQ     found
	ADD     $1, R3
	SUB     $1, R2
	B       scalar

found:
	MOVD R3, ret+32(FP)
	RET

none:
	MOVD $-1, R3
	MOVD R3, ret+32(FP)
	RET

// func rotNEON(x, y []float64, c, s float64)
//
// x[i] = c*x[i] + (s*y[i]) and y[i] = (c*y[i]) - s*x[i], each one
// rounded product and one fused multiply-add.
TEXT ·rotNEON(SB), NOSPLIT, $0-64
	MOVD  x_base+0(FP), R0
	MOVD  x_len+8(FP), R2
	MOVD  y_base+24(FP), R1
	FMOVD c+48(FP), F30
	FMOVD s+56(FP), F31
	VDUP  V30.D[0], V30.D2
	VDUP  V31.D[0], V31.D2
	CMP   $8, R2
	BLT   pairs

loop:
	VLD1   (R0), [V0.D2, V1.D2, V2.D2, V3.D2]
	VLD1   (R1), [V4.D2, V5.D2, V6.D2, V7.D2]
	VFMUL2D(31, 4, 16)
	VFMUL2D(31, 5, 17)
	VFMUL2D(31, 6, 18)
	VFMUL2D(31, 7, 19)
	VFMUL2D(30, 4, 20)
	VFMUL2D(30, 5, 21)
	VFMUL2D(30, 6, 22)
	VFMUL2D(30, 7, 23)
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

pairs:
	CMP    $2, R2
	BLT    tail
	VLD1   (R0), [V0.D2]
	VLD1   (R1), [V4.D2]
	VFMUL2D(31, 4, 16)
	VFMUL2D(30, 4, 20)
	VFMLA  V30.D2, V0.D2, V16.D2
	VFMLS  V31.D2, V0.D2, V20.D2
	VST1.P [V16.D2], 16(R0)
	VST1.P [V20.D2], 16(R1)
	SUB    $2, R2
	B      pairs

tail:
	CBZ    R2, done
	FMOVD  (R0), F0
	FMOVD  (R1), F4
	FMULD  F31, F4, F16      // s*y
	FMADDD F30, F16, F0, F16 // + c*x
	FMULD  F30, F4, F20      // c*y
	FMSUBD F31, F20, F0, F20 // - s*x
	FMOVD  F16, (R0)
	FMOVD  F20, (R1)

done:
	RET

// func gemvNNEON(m, n int, alpha float64, a []float64, lda int, x, y []float64)
//
// Four rows at a time: row r of the four (pointer R6+r) accumulates its
// dot product with x in V(2r) and V(2r+1), 4 columns per iteration; the
// sums are reduced into F(2r), take the odd last column in scalar, and
// y[i] += alpha*sum. Then the remaining rows one at a time.
TEXT ·gemvNNEON(SB), NOSPLIT, $0-104
	MOVD  m+0(FP), R0
	MOVD  n+8(FP), R1
	FMOVD alpha+16(FP), F31
	MOVD  a_base+24(FP), R2
	MOVD  lda+48(FP), R3
	LSL   $3, R3
	MOVD  x_base+56(FP), R4
	MOVD  y_base+80(FP), R5

rows4:
	CMP  $4, R0
	BLT  rows1
	MOVD R2, R6
	ADD  R3, R6, R7
	ADD  R3, R7, R8
	ADD  R3, R8, R9
	MOVD R4, R10
	MOVD R1, R11
	ZERO8

c4:
	CMP    $4, R11
	BLT    c2
	VLD1.P 32(R10), [V16.D2, V17.D2]
	VLD1.P 32(R6), [V18.D2, V19.D2]
	VLD1.P 32(R7), [V20.D2, V21.D2]
	VLD1.P 32(R8), [V22.D2, V23.D2]
	VLD1.P 32(R9), [V24.D2, V25.D2]
	VFMLA  V16.D2, V18.D2, V0.D2
	VFMLA  V17.D2, V19.D2, V1.D2
	VFMLA  V16.D2, V20.D2, V2.D2
	VFMLA  V17.D2, V21.D2, V3.D2
	VFMLA  V16.D2, V22.D2, V4.D2
	VFMLA  V17.D2, V23.D2, V5.D2
	VFMLA  V16.D2, V24.D2, V6.D2
	VFMLA  V17.D2, V25.D2, V7.D2
	SUB    $4, R11
	B      c4

c2:
	CMP    $2, R11
	BLT    reduce4
	VLD1.P 16(R10), [V16.D2]
	VLD1.P 16(R6), [V18.D2]
	VLD1.P 16(R7), [V20.D2]
	VLD1.P 16(R8), [V22.D2]
	VLD1.P 16(R9), [V24.D2]
	VFMLA  V16.D2, V18.D2, V0.D2
	VFMLA  V16.D2, V20.D2, V2.D2
	VFMLA  V16.D2, V22.D2, V4.D2
	VFMLA  V16.D2, V24.D2, V6.D2
	SUB    $2, R11

reduce4:
	VFADD2D(1, 0, 0)
	VFADD2D(3, 2, 2)
	VFADD2D(5, 4, 4)
	VFADD2D(7, 6, 6)
	FADDP2D(0, 0)
	FADDP2D(2, 2)
	FADDP2D(4, 4)
	FADDP2D(6, 6)
	CBZ    R11, y4
	FMOVD  (R10), F16
	FMOVD  (R6), F18
	FMOVD  (R7), F20
	FMOVD  (R8), F22
	FMOVD  (R9), F24
	FMADDD F16, F0, F18, F0
	FMADDD F16, F2, F20, F2
	FMADDD F16, F4, F22, F4
	FMADDD F16, F6, F24, F6

y4:
	FMOVD   (R5), F16
	FMADDD  F31, F16, F0, F16
	FMOVD.P F16, 8(R5)
	FMOVD   (R5), F17
	FMADDD  F31, F17, F2, F17
	FMOVD.P F17, 8(R5)
	FMOVD   (R5), F18
	FMADDD  F31, F18, F4, F18
	FMOVD.P F18, 8(R5)
	FMOVD   (R5), F19
	FMADDD  F31, F19, F6, F19
	FMOVD.P F19, 8(R5)
	ADD     R3<<2, R2, R2
	SUB     $4, R0
	B       rows4

rows1:
	CBZ  R0, done
	MOVD R2, R6
	MOVD R4, R10
	MOVD R1, R11
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16

d4:
	CMP    $4, R11
	BLT    d2
	VLD1.P 32(R10), [V16.D2, V17.D2]
	VLD1.P 32(R6), [V18.D2, V19.D2]
	VFMLA  V16.D2, V18.D2, V0.D2
	VFMLA  V17.D2, V19.D2, V1.D2
	SUB    $4, R11
	B      d4

d2:
	CMP    $2, R11
	BLT    reduce1
	VLD1.P 16(R10), [V16.D2]
	VLD1.P 16(R6), [V18.D2]
	VFMLA  V16.D2, V18.D2, V0.D2
	SUB    $2, R11

reduce1:
	VFADD2D(1, 0, 0)
	FADDP2D(0, 0)
	CBZ    R11, y1
	FMOVD  (R10), F16
	FMOVD  (R6), F18
	FMADDD F16, F0, F18, F0

y1:
	FMOVD   (R5), F16
	FMADDD  F31, F16, F0, F16
	FMOVD.P F16, 8(R5)
	ADD     R3, R2, R2
	SUB     $1, R0
	B       rows1

done:
	RET

// func gemvTNEON(m, n int, alpha float64, a []float64, lda int, x, y []float64)
//
// Four rows at a time: t_r = alpha*x[i+r] broadcast in V16-V19; y is
// loaded 4 columns at a time (V0, V1), takes the four rows' terms in
// order (rows in V20-V27), and is stored back. Then the remaining rows
// one at a time.
TEXT ·gemvTNEON(SB), NOSPLIT, $0-104
	MOVD  m+0(FP), R0
	MOVD  n+8(FP), R1
	FMOVD alpha+16(FP), F31
	MOVD  a_base+24(FP), R2
	MOVD  lda+48(FP), R3
	LSL   $3, R3
	MOVD  x_base+56(FP), R4
	MOVD  y_base+80(FP), R5

rows4:
	CMP     $4, R0
	BLT     rows1
	MOVD    R2, R6
	ADD     R3, R6, R7
	ADD     R3, R7, R8
	ADD     R3, R8, R9
	MOVD    R5, R10
	MOVD    R1, R11
	FMOVD.P 8(R4), F16
	FMOVD.P 8(R4), F17
	FMOVD.P 8(R4), F18
	FMOVD.P 8(R4), F19
	FMULD   F31, F16, F16
	FMULD   F31, F17, F17
	FMULD   F31, F18, F18
	FMULD   F31, F19, F19
	VDUP    V16.D[0], V16.D2
	VDUP    V17.D[0], V17.D2
	VDUP    V18.D[0], V18.D2
	VDUP    V19.D[0], V19.D2

c4:
	CMP    $4, R11
	BLT    c2
	VLD1   (R10), [V0.D2, V1.D2]
	VLD1.P 32(R6), [V20.D2, V21.D2]
	VLD1.P 32(R7), [V22.D2, V23.D2]
	VLD1.P 32(R8), [V24.D2, V25.D2]
	VLD1.P 32(R9), [V26.D2, V27.D2]
	VFMLA  V16.D2, V20.D2, V0.D2
	VFMLA  V16.D2, V21.D2, V1.D2
	VFMLA  V17.D2, V22.D2, V0.D2
	VFMLA  V17.D2, V23.D2, V1.D2
	VFMLA  V18.D2, V24.D2, V0.D2
	VFMLA  V18.D2, V25.D2, V1.D2
	VFMLA  V19.D2, V26.D2, V0.D2
	VFMLA  V19.D2, V27.D2, V1.D2
	VST1.P [V0.D2, V1.D2], 32(R10)
	SUB    $4, R11
	B      c4

c2:
	CMP    $2, R11
	BLT    c1
	VLD1   (R10), [V0.D2]
	VLD1.P 16(R6), [V20.D2]
	VLD1.P 16(R7), [V22.D2]
	VLD1.P 16(R8), [V24.D2]
	VLD1.P 16(R9), [V26.D2]
	VFMLA  V16.D2, V20.D2, V0.D2
	VFMLA  V17.D2, V22.D2, V0.D2
	VFMLA  V18.D2, V24.D2, V0.D2
	VFMLA  V19.D2, V26.D2, V0.D2
	VST1.P [V0.D2], 16(R10)
	SUB    $2, R11

c1:
	CBZ    R11, next4
	FMOVD  (R10), F0
	FMOVD  (R6), F20
	FMOVD  (R7), F22
	FMOVD  (R8), F24
	FMOVD  (R9), F26
	FMADDD F16, F0, F20, F0
	FMADDD F17, F0, F22, F0
	FMADDD F18, F0, F24, F0
	FMADDD F19, F0, F26, F0
	FMOVD  F0, (R10)

next4:
	ADD R3<<2, R2, R2
	SUB $4, R0
	B   rows4

rows1:
	CBZ     R0, done
	MOVD    R2, R6
	MOVD    R5, R10
	MOVD    R1, R11
	FMOVD.P 8(R4), F16
	FMULD   F31, F16, F16
	VDUP    V16.D[0], V16.D2

d4:
	CMP    $4, R11
	BLT    d2
	VLD1   (R10), [V0.D2, V1.D2]
	VLD1.P 32(R6), [V20.D2, V21.D2]
	VFMLA  V16.D2, V20.D2, V0.D2
	VFMLA  V16.D2, V21.D2, V1.D2
	VST1.P [V0.D2, V1.D2], 32(R10)
	SUB    $4, R11
	B      d4

d2:
	CMP    $2, R11
	BLT    d1
	VLD1   (R10), [V0.D2]
	VLD1.P 16(R6), [V20.D2]
	VFMLA  V16.D2, V20.D2, V0.D2
	VST1.P [V0.D2], 16(R10)
	SUB    $2, R11

d1:
	CBZ    R11, next1
	FMOVD  (R10), F0
	FMOVD  (R6), F20
	FMADDD F16, F0, F20, F0
	FMOVD  F0, (R10)

next1:
	ADD R3, R2, R2
	SUB $1, R0
	B   rows1

done:
	RET
