//go:build !purego

#include "textflag.h"

// GEMM micro-kernel and packing for arm64 NEON (128-bit vectors, two
// float64 lanes). The micro-tile is 6 x 8, the largest that fits the 32
// vector registers with a whole B row and A column in registers:
//
//	V0-V23   accumulators: row i of C (i = 0..5) in V(4i)..V(4i+3),
//	         columns 2j, 2j+1 in V(4i+j)
//	V24-V26  the 6 values of A for one step of k: a0 a1 | a2 a3 | a4 a5
//	V27      free (scratch when C is added)
//	V28-V31  the 8 values of the B row for one step of k
//
// Each step of k is two loads (3 and 4 registers) and 24 FMLAs by
// element, each multiplying a B vector by one lane of an A vector.
// The packing routines produce those panels (see gemm.go).

// FMLA Vd.2D, Vn.2D, Vm.D[h]: Vd += Vn * Vm[h]. The Go assembler has no
// by-element form; the encoding is from the ARMv8-A reference (sz = 1,
// L = 0, index in H, Vm in M:Rm).
#define FMLAE(m, h, n, d) WORD $(0x4FC01000 | ((h)<<11) | ((m)<<16) | ((n)<<5) | (d))
// FADD Vd.2D, Vn.2D, Vm.2D
#define VFADD2D(m, n, d) WORD $(0x4E60D400 | ((m)<<16) | ((n)<<5) | (d))
// FMUL Vd.2D, Vn.2D, Vm.2D
#define VFMUL2D(m, n, d) WORD $(0x6E60DC00 | ((m)<<16) | ((n)<<5) | (d))

// ROW(am, ah, d) adds lane ah of V(am) times the B row to row d/4 of the
// tile, V(d)..V(d+3).
#define ROW(am, ah, d) FMLAE(am, ah, 28, d); FMLAE(am, ah, 29, (d)+1); FMLAE(am, ah, 30, (d)+2); FMLAE(am, ah, 31, (d)+3)

// KSTEP is one step of k: A from (R1), B from (R2), both advanced.
#define KSTEP \
	VLD1.P 48(R1), [V24.D2, V25.D2, V26.D2]; \
	VLD1.P 64(R2), [V28.D2, V29.D2, V30.D2, V31.D2]; \
	ROW(24, 0, 0); ROW(24, 1, 4); ROW(25, 0, 8); ROW(25, 1, 12); ROW(26, 0, 16); ROW(26, 1, 20)

// CADD(d, r0, r1, r2, r3) adds row d/4 of the tile (registers r0-r3,
// numbers d..d+3) to the row of C at (R3) and steps R3 to the next row;
// CSTORE stores it.
#define CADD(d, r0, r1, r2, r3) \
	VLD1 (R3), [V24.D2, V25.D2, V26.D2, V27.D2]; \
	VFADD2D(24, d, d); VFADD2D(25, (d)+1, (d)+1); VFADD2D(26, (d)+2, (d)+2); VFADD2D(27, (d)+3, (d)+3); \
	CSTORE(r0, r1, r2, r3)
#define CSTORE(r0, r1, r2, r3) VST1.P [r0, r1, r2, r3], (R3)(R4)

// CPREFETCH prefetches the row of C at (R6) (64 bytes, maybe across two
// lines) and steps R6 to the next row.
#define CPREFETCH PRFM (R6), PSTL1KEEP; PRFM 56(R6), PSTL1KEEP; ADD R4, R6

// func gemmKernelNEON(k int, a, b, c []float64, ldc int, add int)
TEXT ·gemmKernelNEON(SB), NOSPLIT, $0-96
	MOVD k+0(FP), R0
	MOVD a_base+8(FP), R1
	MOVD b_base+32(FP), R2
	MOVD c_base+56(FP), R3
	MOVD ldc+80(FP), R4
	LSL  $3, R4
	MOVD add+88(FP), R5
	MOVD R3, R6
	CPREFETCH; CPREFETCH; CPREFETCH; CPREFETCH; CPREFETCH; CPREFETCH
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16
	VEOR V4.B16, V4.B16, V4.B16
	VEOR V5.B16, V5.B16, V5.B16
	VEOR V6.B16, V6.B16, V6.B16
	VEOR V7.B16, V7.B16, V7.B16
	VEOR V8.B16, V8.B16, V8.B16
	VEOR V9.B16, V9.B16, V9.B16
	VEOR V10.B16, V10.B16, V10.B16
	VEOR V11.B16, V11.B16, V11.B16
	VEOR V12.B16, V12.B16, V12.B16
	VEOR V13.B16, V13.B16, V13.B16
	VEOR V14.B16, V14.B16, V14.B16
	VEOR V15.B16, V15.B16, V15.B16
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	VEOR V20.B16, V20.B16, V20.B16
	VEOR V21.B16, V21.B16, V21.B16
	VEOR V22.B16, V22.B16, V22.B16
	VEOR V23.B16, V23.B16, V23.B16
	LSR  $1, R0, R7
	CBZ  R7, odd

loop2:
	PRFM  384(R2), PLDL1KEEP
	KSTEP
	KSTEP
	SUBS  $1, R7, R7
	BNE   loop2

odd:
	TBZ $0, R0, write
	KSTEP

write:
	CBZ R5, store
	CADD(0, V0.D2, V1.D2, V2.D2, V3.D2)
	CADD(4, V4.D2, V5.D2, V6.D2, V7.D2)
	CADD(8, V8.D2, V9.D2, V10.D2, V11.D2)
	CADD(12, V12.D2, V13.D2, V14.D2, V15.D2)
	CADD(16, V16.D2, V17.D2, V18.D2, V19.D2)
	CADD(20, V20.D2, V21.D2, V22.D2, V23.D2)
	RET

store:
	CSTORE(V0.D2, V1.D2, V2.D2, V3.D2)
	CSTORE(V4.D2, V5.D2, V6.D2, V7.D2)
	CSTORE(V8.D2, V9.D2, V10.D2, V11.D2)
	CSTORE(V12.D2, V13.D2, V14.D2, V15.D2)
	CSTORE(V16.D2, V17.D2, V18.D2, V19.D2)
	CSTORE(V20.D2, V21.D2, V22.D2, V23.D2)
	RET

// func packCopyNEON(kc, w int, alpha float64, src []float64, ld int, dst []float64)
//
// For each step of p, the w values of the source row, 4 then 2 at a
// time (and a last odd one in scalar, should w be odd), scaled by alpha
// into the next w places of dst.
TEXT ·packCopyNEON(SB), NOSPLIT, $0-80
	MOVD  kc+0(FP), R0
	MOVD  w+8(FP), R1
	FMOVD alpha+16(FP), F31
	VDUP  V31.D[0], V31.D2
	MOVD  src_base+24(FP), R2
	MOVD  ld+48(FP), R3
	LSL   $3, R3
	MOVD  dst_base+56(FP), R4
	CBZ   R0, done

step:
	MOVD R2, R5
	MOVD R1, R6

v4:
	CMP    $4, R6
	BLT    v2
	VLD1.P 32(R5), [V0.D2, V1.D2]
	VFMUL2D(31, 0, 0)
	VFMUL2D(31, 1, 1)
	VST1.P [V0.D2, V1.D2], 32(R4)
	SUB    $4, R6
	B      v4

v2:
	CMP    $2, R6
	BLT    v1
	VLD1.P 16(R5), [V0.D2]
	VFMUL2D(31, 0, 0)
	VST1.P [V0.D2], 16(R4)
	SUB    $2, R6

v1:
	CBZ     R6, next
	FMOVD   (R5), F0
	FMULD   F31, F0, F0
	FMOVD.P F0, 8(R4)

next:
	ADD  R3, R2
	SUBS $1, R0
	BNE  step

done:
	RET

// func packTransNEON(kc int, alpha float64, src []float64, ld int, dst []float64, ws int)
//
// Two rows (R1, R2) at a time: load 2 x 4 values, scale them, transpose
// each 2 x 2 block with ZIP1/ZIP2 (the pair of column p is lane 0 of
// row 0 and lane 0 of row 1) and store one pair per step of p, ws apart.
// A last odd column (kc is meant to be even) goes through scalar code.
TEXT ·packTransNEON(SB), NOSPLIT, $0-80
	MOVD  kc+0(FP), R0
	FMOVD alpha+8(FP), F31
	VDUP  V31.D[0], V31.D2
	MOVD  src_base+16(FP), R1
	MOVD  ld+40(FP), R2
	LSL   $3, R2
	ADD   R1, R2, R2
	MOVD  dst_base+48(FP), R3
	MOVD  ws+72(FP), R4
	LSL   $3, R4

b4:
	CMP    $4, R0
	BLT    b2
	VLD1.P 32(R1), [V0.D2, V1.D2]
	VLD1.P 32(R2), [V2.D2, V3.D2]
	VFMUL2D(31, 0, 0)
	VFMUL2D(31, 1, 1)
	VFMUL2D(31, 2, 2)
	VFMUL2D(31, 3, 3)
	VZIP1  V2.D2, V0.D2, V4.D2
	VZIP2  V2.D2, V0.D2, V5.D2
	VZIP1  V3.D2, V1.D2, V6.D2
	VZIP2  V3.D2, V1.D2, V7.D2
	VST1.P [V4.D2], (R3)(R4)
	VST1.P [V5.D2], (R3)(R4)
	VST1.P [V6.D2], (R3)(R4)
	VST1.P [V7.D2], (R3)(R4)
	SUB    $4, R0
	B      b4

b2:
	CMP    $2, R0
	BLT    b1
	VLD1.P 16(R1), [V0.D2]
	VLD1.P 16(R2), [V2.D2]
	VFMUL2D(31, 0, 0)
	VFMUL2D(31, 2, 2)
	VZIP1  V2.D2, V0.D2, V4.D2
	VZIP2  V2.D2, V0.D2, V5.D2
	VST1.P [V4.D2], (R3)(R4)
	VST1.P [V5.D2], (R3)(R4)
	SUB    $2, R0

b1:
	CBZ   R0, done
	FMOVD (R1), F0
	FMOVD (R2), F2
	FMULD F31, F0, F0
	FMULD F31, F2, F2
	FMOVD F0, (R3)
	FMOVD F2, 8(R3)

done:
	RET
