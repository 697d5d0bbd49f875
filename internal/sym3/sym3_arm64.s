//go:build !purego

#include "textflag.h"

// Micro-kernel of the symmetric third-order update for arm64 NEON (see
// sym3.go and sym3_arm64.go): a 4 x 2nv tile, nv = 1..4 vectors of two
// float64 lanes.
//
//	V0-V15   accumulators: row r in V(4r)..V(4r+nv-1)
//	V16-V19  the vectors of b, scaled by z
//	V20-V21  the 4 values of a: a0 a1 | a2 a3
//	V22      z = wa[p] * zc[p*ld] (lane 0); V23 holds wa[p]
//
// R1, R2, R3, R5 walk a, b, zc and wa; R4 is ld in bytes.

// FMLA Vd.2D, Vn.2D, Vm.D[h] and FMUL Vd.2D, Vn.2D, Vm.D[h] (by element):
// the Go assembler lacks these forms; encodings from the ARMv8-A
// reference (sz = 1, L = 0, index in H, Vm in M:Rm).
#define FMLAE(m, h, n, d) WORD $(0x4FC01000 | ((h)<<11) | ((m)<<16) | ((n)<<5) | (d))
#define FMULE(m, h, n, d) WORD $(0x4FC09000 | ((h)<<11) | ((m)<<16) | ((n)<<5) | (d))

// SCALE computes z into lane 0 of V22 and steps zc and wa.
#define SCALE FMOVD (R3), F22; ADD R4, R3; FMOVD.P 8(R5), F23; FMULD F23, F22, F22

#define LOADA VLD1.P (R1)(R4), [V20.D2, V21.D2]

// ROWn(am, ah, d) adds lane ah of V(am) times the first n vectors of b
// to row d/4 of the tile.
#define ROW1(am, ah, d) FMLAE(am, ah, 16, d)
#define ROW2(am, ah, d) FMLAE(am, ah, 16, d); FMLAE(am, ah, 17, (d)+1)
#define ROW3(am, ah, d) FMLAE(am, ah, 16, d); FMLAE(am, ah, 17, (d)+1); FMLAE(am, ah, 18, (d)+2)
#define ROW4(am, ah, d) FMLAE(am, ah, 16, d); FMLAE(am, ah, 17, (d)+1); FMLAE(am, ah, 18, (d)+2); FMLAE(am, ah, 19, (d)+3)

#define STEP1 SCALE; VLD1.P (R2)(R4), [V16.D2]; FMULE(22, 0, 16, 16); LOADA; \
	ROW1(20, 0, 0); ROW1(20, 1, 4); ROW1(21, 0, 8); ROW1(21, 1, 12)
#define STEP2 SCALE; VLD1.P (R2)(R4), [V16.D2, V17.D2]; FMULE(22, 0, 16, 16); FMULE(22, 0, 17, 17); LOADA; \
	ROW2(20, 0, 0); ROW2(20, 1, 4); ROW2(21, 0, 8); ROW2(21, 1, 12)
#define STEP3 SCALE; VLD1.P (R2)(R4), [V16.D2, V17.D2, V18.D2]; FMULE(22, 0, 16, 16); FMULE(22, 0, 17, 17); FMULE(22, 0, 18, 18); LOADA; \
	ROW3(20, 0, 0); ROW3(20, 1, 4); ROW3(21, 0, 8); ROW3(21, 1, 12)
#define STEP4 SCALE; VLD1.P (R2)(R4), [V16.D2, V17.D2, V18.D2, V19.D2]; FMULE(22, 0, 16, 16); FMULE(22, 0, 17, 17); FMULE(22, 0, 18, 18); FMULE(22, 0, 19, 19); LOADA; \
	ROW4(20, 0, 0); ROW4(20, 1, 4); ROW4(21, 0, 8); ROW4(21, 1, 12)

// func sym3TileNEON(k int, a, b, zc []float64, ld int, wa []float64, tile *[32]float64, nv int)
TEXT ·sym3TileNEON(SB), NOSPLIT, $0-128
	MOVD k+0(FP), R0
	MOVD a_base+8(FP), R1
	MOVD b_base+32(FP), R2
	MOVD zc_base+56(FP), R3
	MOVD ld+80(FP), R4
	LSL  $3, R4
	MOVD wa_base+88(FP), R5
	MOVD tile+112(FP), R6
	MOVD nv+120(FP), R7
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
	CMP  $1, R7
	BEQ  loop1
	CMP  $2, R7
	BEQ  loop2
	CMP  $3, R7
	BEQ  loop3

loop4:
	STEP4
	SUBS $1, R0, R0
	BNE  loop4
	B    store

loop3:
	STEP3
	SUBS $1, R0, R0
	BNE  loop3
	B    store

loop2:
	STEP2
	SUBS $1, R0, R0
	BNE  loop2
	B    store

loop1:
	STEP1
	SUBS $1, R0, R0
	BNE  loop1

	// The whole 4 x 8 tile is stored; the columns past 2nv hold zeros.
store:
	VST1.P [V0.D2, V1.D2, V2.D2, V3.D2], 64(R6)
	VST1.P [V4.D2, V5.D2, V6.D2, V7.D2], 64(R6)
	VST1.P [V8.D2, V9.D2, V10.D2, V11.D2], 64(R6)
	VST1   [V12.D2, V13.D2, V14.D2, V15.D2], (R6)
	RET
