//go:build !purego

#include "textflag.h"

// No-pack micro-kernel for AVX-512F (see gemm_ts.go): a 4 x 24 tile of C
// in Z0-Z11 (row r in Z(3r), Z(3r+1), Z(3r+2)), the current row of B in
// Z24-Z26 (loaded under the column masks K1-K3, so the columns past jw
// read nothing and stay zero), A values broadcast into Z27/Z28. Per step
// of k: 3 loads, 4 broadcasts, 12 FMAs. A(i, p) is at a + 8*(i*sai +
// p*sap), B(p, j) at b + 8*(p*ldb + j).

#define TSROW(addr, bc, r0, r1, r2) VBROADCASTSD addr, bc; VFMADD231PD Z24, bc, r0; VFMADD231PD Z25, bc, r1; VFMADD231PD Z26, bc, r2

#define TSSTEP \
	VMOVUPD.Z (DI), K1, Z24; VMOVUPD.Z 64(DI), K2, Z25; VMOVUPD.Z 128(DI), K3, Z26; \
	TSROW((SI), Z27, Z0, Z1, Z2); TSROW((SI)(R10*1), Z28, Z3, Z4, Z5); \
	TSROW((SI)(R10*2), Z27, Z6, Z7, Z8); TSROW((SI)(R12*1), Z28, Z9, Z10, Z11); \
	ADDQ R11, SI; ADDQ R13, DI

// TSMUL scales one row of the tile by alpha (Z31); TSADD adds alpha
// times it to the row of C: c = alpha*acc + c.
#define TSMUL(r0, r1, r2) VMULPD Z31, r0, r0; VMULPD Z31, r1, r1; VMULPD Z31, r2, r2
#define TSADD(r0, r1, r2) \
	VMOVUPD.Z (DX), K1, Z24; VMOVUPD.Z 64(DX), K2, Z25; VMOVUPD.Z 128(DX), K3, Z26; \
	VFMADD213PD Z24, Z31, r0; VFMADD213PD Z25, Z31, r1; VFMADD213PD Z26, Z31, r2
#define TSSTORE(r0, r1, r2) VMOVUPD r0, K1, (DX); VMOVUPD r1, K2, 64(DX); VMOVUPD r2, K3, 128(DX); ADDQ R8, DX

// The same for tiles of at most 16 columns (jw <= 16): two vectors per
// row, Z(3r) and Z(3r+1), so that no FMA is spent on a third, empty one.
#define TSROW2(addr, bc, r0, r1) VBROADCASTSD addr, bc; VFMADD231PD Z24, bc, r0; VFMADD231PD Z25, bc, r1

#define TSSTEP2 \
	VMOVUPD.Z (DI), K1, Z24; VMOVUPD.Z 64(DI), K2, Z25; \
	TSROW2((SI), Z27, Z0, Z1); TSROW2((SI)(R10*1), Z28, Z3, Z4); \
	TSROW2((SI)(R10*2), Z27, Z6, Z7); TSROW2((SI)(R12*1), Z28, Z9, Z10); \
	ADDQ R11, SI; ADDQ R13, DI

#define TSMUL2(r0, r1) VMULPD Z31, r0, r0; VMULPD Z31, r1, r1
#define TSADD2(r0, r1) \
	VMOVUPD.Z (DX), K1, Z24; VMOVUPD.Z 64(DX), K2, Z25; \
	VFMADD213PD Z24, Z31, r0; VFMADD213PD Z25, Z31, r1
#define TSSTORE2(r0, r1) VMOVUPD r0, K1, (DX); VMOVUPD r1, K2, 64(DX); ADDQ R8, DX

// func tsKernelAVX512(k int, a []float64, sai, sap int, b []float64, ldb int, c []float64, ldc int, alpha float64, add int, jw int)
TEXT ·tsKernelAVX512(SB), NOSPLIT, $0-136
	MOVQ jw+128(FP), CX
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	KMOVW AX, K1
	SHRQ $8, AX
	KMOVW AX, K2
	SHRQ $8, AX
	KMOVW AX, K3
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
	VBROADCASTSD alpha+112(FP), Z31
	VPXORQ  Z0, Z0, Z0
	VMOVAPD Z0, Z1; VMOVAPD Z0, Z2; VMOVAPD Z0, Z3; VMOVAPD Z0, Z4; VMOVAPD Z0, Z5
	VMOVAPD Z0, Z6; VMOVAPD Z0, Z7; VMOVAPD Z0, Z8; VMOVAPD Z0, Z9; VMOVAPD Z0, Z10
	VMOVAPD Z0, Z11
	MOVQ CX, BX
	SHRQ $1, BX
	CMPQ jw+128(FP), $16
	JLE  narrow
	TESTQ BX, BX
	JZ   rest

loop2:
	TSSTEP
	TSSTEP
	DECQ BX
	JNZ  loop2

rest:
	ANDQ $1, CX
	JZ   write
	TSSTEP

write:
	MOVQ  add+120(FP), AX
	TESTQ AX, AX
	JZ    store
	TSADD(Z0, Z1, Z2); TSSTORE(Z0, Z1, Z2)
	TSADD(Z3, Z4, Z5); TSSTORE(Z3, Z4, Z5)
	TSADD(Z6, Z7, Z8); TSSTORE(Z6, Z7, Z8)
	TSADD(Z9, Z10, Z11); TSSTORE(Z9, Z10, Z11)
	VZEROUPPER
	RET

store:
	TSMUL(Z0, Z1, Z2); TSSTORE(Z0, Z1, Z2)
	TSMUL(Z3, Z4, Z5); TSSTORE(Z3, Z4, Z5)
	TSMUL(Z6, Z7, Z8); TSSTORE(Z6, Z7, Z8)
	TSMUL(Z9, Z10, Z11); TSSTORE(Z9, Z10, Z11)
	VZEROUPPER
	RET

narrow:
	TESTQ BX, BX
	JZ    rest2

loop2n:
	TSSTEP2
	TSSTEP2
	DECQ BX
	JNZ  loop2n

rest2:
	ANDQ $1, CX
	JZ   write2
	TSSTEP2

write2:
	MOVQ  add+120(FP), AX
	TESTQ AX, AX
	JZ    store2
	TSADD2(Z0, Z1); TSSTORE2(Z0, Z1)
	TSADD2(Z3, Z4); TSSTORE2(Z3, Z4)
	TSADD2(Z6, Z7); TSSTORE2(Z6, Z7)
	TSADD2(Z9, Z10); TSSTORE2(Z9, Z10)
	VZEROUPPER
	RET

store2:
	TSMUL2(Z0, Z1); TSSTORE2(Z0, Z1)
	TSMUL2(Z3, Z4); TSSTORE2(Z3, Z4)
	TSMUL2(Z6, Z7); TSSTORE2(Z6, Z7)
	TSMUL2(Z9, Z10); TSSTORE2(Z9, Z10)
	VZEROUPPER
	RET
