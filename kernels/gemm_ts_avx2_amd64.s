//go:build !purego

#include "textflag.h"

// No-pack micro-kernel for AVX2 and FMA (see gemm_ts.go): a 4 x 12 tile
// of C in Y0-Y11 (row r in Y(3r), Y(3r+1), Y(3r+2)), the current row of B
// in Y12-Y14 and A values broadcast into Y15. Per step of k: 3 loads, 4
// broadcasts, 12 FMAs. The tile is always whole (jw = 12): the driver
// overlaps the last columns instead of masking them. A(i, p) is at
// a + 8*(i*sai + p*sap), B(p, j) at b + 8*(p*ldb + j).

#define TS2ROW(addr, r0, r1, r2) VBROADCASTSD addr, Y15; VFMADD231PD Y12, Y15, r0; VFMADD231PD Y13, Y15, r1; VFMADD231PD Y14, Y15, r2

#define TS2STEP \
	VMOVUPD (DI), Y12; VMOVUPD 32(DI), Y13; VMOVUPD 64(DI), Y14; \
	TS2ROW((SI), Y0, Y1, Y2); TS2ROW((SI)(R10*1), Y3, Y4, Y5); \
	TS2ROW((SI)(R10*2), Y6, Y7, Y8); TS2ROW((SI)(R12*1), Y9, Y10, Y11); \
	ADDQ R11, SI; ADDQ R13, DI

// TS2MUL scales one row of the tile by alpha (Y15); TS2ADD adds alpha
// times it to the row of C: c = alpha*acc + c.
#define TS2MUL(r0, r1, r2) VMULPD Y15, r0, r0; VMULPD Y15, r1, r1; VMULPD Y15, r2, r2
#define TS2ADD(r0, r1, r2) \
	VMOVUPD (DX), Y12; VMOVUPD 32(DX), Y13; VMOVUPD 64(DX), Y14; \
	VFMADD213PD Y12, Y15, r0; VFMADD213PD Y13, Y15, r1; VFMADD213PD Y14, Y15, r2
#define TS2STORE(r0, r1, r2) VMOVUPD r0, (DX); VMOVUPD r1, 32(DX); VMOVUPD r2, 64(DX); ADDQ R8, DX

// func tsKernelAVX2(k int, a []float64, sai, sap int, b []float64, ldb int, c []float64, ldc int, alpha float64, add int, jw int)
TEXT ·tsKernelAVX2(SB), NOSPLIT, $0-136
	MOVQ k+0(FP), CX
	MOVQ a_base+8(FP), SI
	MOVQ sai+32(FP), R10
	SHLQ $3, R10
	LEAQ (R10)(R10*2), R12
	MOVQ sap+40(FP), R11
	SHLQ $3, R11
	MOVQ b_base+48(FP), DI
	MOVQ ldb+72(FP), R13
	SHLQ $3, R13
	MOVQ c_base+80(FP), DX
	MOVQ ldc+104(FP), R8
	SHLQ $3, R8
	VXORPD  Y0, Y0, Y0
	VMOVAPD Y0, Y1; VMOVAPD Y0, Y2; VMOVAPD Y0, Y3; VMOVAPD Y0, Y4; VMOVAPD Y0, Y5
	VMOVAPD Y0, Y6; VMOVAPD Y0, Y7; VMOVAPD Y0, Y8; VMOVAPD Y0, Y9; VMOVAPD Y0, Y10
	VMOVAPD Y0, Y11
	MOVQ CX, BX
	SHRQ $1, BX
	JZ   rest

loop2:
	TS2STEP
	TS2STEP
	DECQ BX
	JNZ  loop2

rest:
	ANDQ $1, CX
	JZ   write
	TS2STEP

write:
	VBROADCASTSD alpha+112(FP), Y15
	MOVQ  add+120(FP), AX
	TESTQ AX, AX
	JZ    store
	TS2ADD(Y0, Y1, Y2); TS2STORE(Y0, Y1, Y2)
	TS2ADD(Y3, Y4, Y5); TS2STORE(Y3, Y4, Y5)
	TS2ADD(Y6, Y7, Y8); TS2STORE(Y6, Y7, Y8)
	TS2ADD(Y9, Y10, Y11); TS2STORE(Y9, Y10, Y11)
	VZEROUPPER
	RET

store:
	TS2MUL(Y0, Y1, Y2); TS2STORE(Y0, Y1, Y2)
	TS2MUL(Y3, Y4, Y5); TS2STORE(Y3, Y4, Y5)
	TS2MUL(Y6, Y7, Y8); TS2STORE(Y6, Y7, Y8)
	TS2MUL(Y9, Y10, Y11); TS2STORE(Y9, Y10, Y11)
	VZEROUPPER
	RET
