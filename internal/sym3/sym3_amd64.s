//go:build !purego

#include "textflag.h"

// Micro-kernels of the symmetric third-order update (see sym3.go): a tile
// of rows i (values of A broadcast from the sample row) by columns l (a
// vector of the sample row scaled by z = wa[p]*zc[p*ld]), summed over the
// k samples of a block and then added to the packed tensor. Only the
// last vector of a row can be partial; it is loaded and stored under a
// mask.

// func sym3KernelAVX512(k int, a, b, zc []float64, ld int, wa []float64, dst []float64, ldc, mr, nc int)
//
// Registers: Z0-Z23 accumulators (row r in Z(3r), Z(3r+1), Z(3r+2), of
// which the tile uses nv = ceil(nc/8)), Z24-Z26 the scaled vectors of b,
// Z27 the scale z, Z28/Z29 the broadcast values of a; SI, DI, R10, R11
// walk a, b, zc and wa.

#define ZSCALE VBROADCASTSD (R10), Z27; VMULPD.BCST (R11), Z27, Z27
#define ZNEXT ADDQ R8, SI; ADDQ R8, DI; ADDQ R8, R10; ADDQ $8, R11

#define ZROW1(m, t, r0) VBROADCASTSD m, t; VFMADD231PD Z24, t, r0
#define ZROW2(m, t, r0, r1) VBROADCASTSD m, t; VFMADD231PD Z24, t, r0; VFMADD231PD Z25, t, r1
#define ZROW3(m, t, r0, r1, r2) VBROADCASTSD m, t; VFMADD231PD Z24, t, r0; VFMADD231PD Z25, t, r1; VFMADD231PD Z26, t, r2

#define ZSTEP1 \
	ZSCALE; VMULPD (DI), Z27, Z24; \
	ZROW1((SI), Z28, Z0); ZROW1(8(SI), Z29, Z3); ZROW1(16(SI), Z28, Z6); ZROW1(24(SI), Z29, Z9); \
	ZROW1(32(SI), Z28, Z12); ZROW1(40(SI), Z29, Z15); ZROW1(48(SI), Z28, Z18); ZROW1(56(SI), Z29, Z21); \
	ZNEXT

#define ZSTEP2 \
	ZSCALE; VMULPD (DI), Z27, Z24; VMULPD 64(DI), Z27, Z25; \
	ZROW2((SI), Z28, Z0, Z1); ZROW2(8(SI), Z29, Z3, Z4); ZROW2(16(SI), Z28, Z6, Z7); ZROW2(24(SI), Z29, Z9, Z10); \
	ZROW2(32(SI), Z28, Z12, Z13); ZROW2(40(SI), Z29, Z15, Z16); ZROW2(48(SI), Z28, Z18, Z19); ZROW2(56(SI), Z29, Z21, Z22); \
	ZNEXT

#define ZSTEP3 \
	ZSCALE; VMULPD (DI), Z27, Z24; VMULPD 64(DI), Z27, Z25; VMULPD 128(DI), Z27, Z26; \
	ZROW3((SI), Z28, Z0, Z1, Z2); ZROW3(8(SI), Z29, Z3, Z4, Z5); ZROW3(16(SI), Z28, Z6, Z7, Z8); ZROW3(24(SI), Z29, Z9, Z10, Z11); \
	ZROW3(32(SI), Z28, Z12, Z13, Z14); ZROW3(40(SI), Z29, Z15, Z16, Z17); ZROW3(48(SI), Z28, Z18, Z19, Z20); ZROW3(56(SI), Z29, Z21, Z22, Z23); \
	ZNEXT

// ZHSTEPn are ZSTEPn for tiles of at most 4 rows.
#define ZHSTEP1 \
	ZSCALE; VMULPD (DI), Z27, Z24; \
	ZROW1((SI), Z28, Z0); ZROW1(8(SI), Z29, Z3); ZROW1(16(SI), Z28, Z6); ZROW1(24(SI), Z29, Z9); \
	ZNEXT

#define ZHSTEP2 \
	ZSCALE; VMULPD (DI), Z27, Z24; VMULPD 64(DI), Z27, Z25; \
	ZROW2((SI), Z28, Z0, Z1); ZROW2(8(SI), Z29, Z3, Z4); ZROW2(16(SI), Z28, Z6, Z7); ZROW2(24(SI), Z29, Z9, Z10); \
	ZNEXT

#define ZHSTEP3 \
	ZSCALE; VMULPD (DI), Z27, Z24; VMULPD 64(DI), Z27, Z25; VMULPD 128(DI), Z27, Z26; \
	ZROW3((SI), Z28, Z0, Z1, Z2); ZROW3(8(SI), Z29, Z3, Z4, Z5); ZROW3(16(SI), Z28, Z6, Z7, Z8); ZROW3(24(SI), Z29, Z9, Z10, Z11); \
	ZNEXT

// ZMASK sets K1 to the low nc-off bits (the valid lanes of the last
// vector, which starts at column off).
#define ZMASK(off) MOVQ R13, CX; SUBQ $off, CX; MOVL $1, AX; SHLQ CX, AX; DECQ AX; KMOVW AX, K1

// ZFULL adds a full vector to dst at offset off; ZPART adds the last,
// partial one under K1.
#define ZFULL(off, r) VADDPD off(DX), r, r; VMOVUPD r, off(DX)
#define ZPART(off, r) VMOVUPD.Z off(DX), K1, Z30; VADDPD Z30, r, r; VMOVUPD r, K1, off(DX)

#define ZST1(r0) ZPART(0, r0); ADDQ R9, DX; DECQ R12; JZ done
#define ZST2(r0, r1) ZFULL(0, r0); ZPART(64, r1); ADDQ R9, DX; DECQ R12; JZ done
#define ZST3(r0, r1, r2) ZFULL(0, r0); ZFULL(64, r1); ZPART(128, r2); ADDQ R9, DX; DECQ R12; JZ done

TEXT ·sym3KernelAVX512(SB), NOSPLIT, $0-160
	MOVQ k+0(FP), CX
	TESTQ CX, CX
	JZ    ret
	MOVQ a_base+8(FP), SI
	MOVQ b_base+32(FP), DI
	MOVQ zc_base+56(FP), R10
	MOVQ ld+80(FP), R8
	SHLQ $3, R8
	MOVQ wa_base+88(FP), R11
	MOVQ dst_base+112(FP), DX
	MOVQ ldc+136(FP), R9
	SHLQ $3, R9
	MOVQ mr+144(FP), R12
	MOVQ nc+152(FP), R13
	VPXORQ  Z0, Z0, Z0
	VMOVAPD Z0, Z1; VMOVAPD Z0, Z2; VMOVAPD Z0, Z3; VMOVAPD Z0, Z4; VMOVAPD Z0, Z5
	VMOVAPD Z0, Z6; VMOVAPD Z0, Z7; VMOVAPD Z0, Z8; VMOVAPD Z0, Z9; VMOVAPD Z0, Z10
	VMOVAPD Z0, Z11; VMOVAPD Z0, Z12; VMOVAPD Z0, Z13; VMOVAPD Z0, Z14; VMOVAPD Z0, Z15
	VMOVAPD Z0, Z16; VMOVAPD Z0, Z17; VMOVAPD Z0, Z18; VMOVAPD Z0, Z19; VMOVAPD Z0, Z20
	VMOVAPD Z0, Z21; VMOVAPD Z0, Z22; VMOVAPD Z0, Z23
	CMPQ R12, $4
	JLE  half
	CMPQ R13, $8
	JLE  nv1
	CMPQ R13, $16
	JLE  nv2

loop3:
	ZSTEP3
	DECQ CX
	JNZ  loop3
	ZMASK(16)
	ZST3(Z0, Z1, Z2); ZST3(Z3, Z4, Z5); ZST3(Z6, Z7, Z8); ZST3(Z9, Z10, Z11)
	ZST3(Z12, Z13, Z14); ZST3(Z15, Z16, Z17); ZST3(Z18, Z19, Z20); ZST3(Z21, Z22, Z23)
	JMP done

nv2:
	ZSTEP2
	DECQ CX
	JNZ  nv2
	ZMASK(8)
	ZST2(Z0, Z1); ZST2(Z3, Z4); ZST2(Z6, Z7); ZST2(Z9, Z10)
	ZST2(Z12, Z13); ZST2(Z15, Z16); ZST2(Z18, Z19); ZST2(Z21, Z22)
	JMP done

nv1:
	ZSTEP1
	DECQ CX
	JNZ  nv1
	ZMASK(0)
	ZST1(Z0); ZST1(Z3); ZST1(Z6); ZST1(Z9)
	ZST1(Z12); ZST1(Z15); ZST1(Z18); ZST1(Z21)
	JMP done

	// Tiles of at most 4 rows.
half:
	CMPQ R13, $8
	JLE  hnv1
	CMPQ R13, $16
	JLE  hnv2

hloop3:
	ZHSTEP3
	DECQ CX
	JNZ  hloop3
	ZMASK(16)
	ZST3(Z0, Z1, Z2); ZST3(Z3, Z4, Z5); ZST3(Z6, Z7, Z8); ZST3(Z9, Z10, Z11)
	JMP done

hnv2:
	ZHSTEP2
	DECQ CX
	JNZ  hnv2
	ZMASK(8)
	ZST2(Z0, Z1); ZST2(Z3, Z4); ZST2(Z6, Z7); ZST2(Z9, Z10)
	JMP done

hnv1:
	ZHSTEP1
	DECQ CX
	JNZ  hnv1
	ZMASK(0)
	ZST1(Z0); ZST1(Z3); ZST1(Z6); ZST1(Z9)

done:
	VZEROUPPER

ret:
	RET

// func sym3KernelAVX2(k int, a, b, zc []float64, ld int, wa []float64, dst []float64, ldc, mr, nc int)
//
// Registers: Y0-Y11 accumulators (row r in Y(3r), Y(3r+1), Y(3r+2), of
// which the tile uses nv = ceil(nc/4)), Y12-Y14 the scaled vectors of b,
// Y15 the scale and then each broadcast value of a. The partial last
// vector goes through VMASKMOVPD with a mask from sym3mask<>.

#define YSCALE VMOVSD (R10), X15; VMULSD (R11), X15, X15; VBROADCASTSD X15, Y15
#define YROW1(m, r0) VBROADCASTSD m, Y15; VFMADD231PD Y12, Y15, r0
#define YROW2(m, r0, r1) VBROADCASTSD m, Y15; VFMADD231PD Y12, Y15, r0; VFMADD231PD Y13, Y15, r1
#define YROW3(m, r0, r1, r2) VBROADCASTSD m, Y15; VFMADD231PD Y12, Y15, r0; VFMADD231PD Y13, Y15, r1; VFMADD231PD Y14, Y15, r2

#define YSTEP1 \
	YSCALE; VMULPD (DI), Y15, Y12; \
	YROW1((SI), Y0); YROW1(8(SI), Y3); YROW1(16(SI), Y6); YROW1(24(SI), Y9); \
	ZNEXT

#define YSTEP2 \
	YSCALE; VMULPD (DI), Y15, Y12; VMULPD 32(DI), Y15, Y13; \
	YROW2((SI), Y0, Y1); YROW2(8(SI), Y3, Y4); YROW2(16(SI), Y6, Y7); YROW2(24(SI), Y9, Y10); \
	ZNEXT

#define YSTEP3 \
	YSCALE; VMULPD (DI), Y15, Y12; VMULPD 32(DI), Y15, Y13; VMULPD 64(DI), Y15, Y14; \
	YROW3((SI), Y0, Y1, Y2); YROW3(8(SI), Y3, Y4, Y5); YROW3(16(SI), Y6, Y7, Y8); YROW3(24(SI), Y9, Y10, Y11); \
	ZNEXT

// YMASK loads into Y15 the mask of the nc-off valid lanes of the last
// vector.
#define YMASK(off) MOVQ R13, AX; SUBQ $off, AX; SHLQ $5, AX; LEAQ sym3mask<>(SB), BX; VMOVDQU (BX)(AX*1), Y15

#define YFULL(off, r) VADDPD off(DX), r, r; VMOVUPD r, off(DX)
#define YPART(off, r) VMASKMOVPD off(DX), Y15, Y12; VADDPD Y12, r, r; VMASKMOVPD r, Y15, off(DX)

#define YST1(r0) YPART(0, r0); ADDQ R9, DX; DECQ R12; JZ ydone
#define YST2(r0, r1) YFULL(0, r0); YPART(32, r1); ADDQ R9, DX; DECQ R12; JZ ydone
#define YST3(r0, r1, r2) YFULL(0, r0); YFULL(32, r1); YPART(64, r2); ADDQ R9, DX; DECQ R12; JZ ydone

TEXT ·sym3KernelAVX2(SB), NOSPLIT, $0-160
	MOVQ k+0(FP), CX
	TESTQ CX, CX
	JZ    yret
	MOVQ a_base+8(FP), SI
	MOVQ b_base+32(FP), DI
	MOVQ zc_base+56(FP), R10
	MOVQ ld+80(FP), R8
	SHLQ $3, R8
	MOVQ wa_base+88(FP), R11
	MOVQ dst_base+112(FP), DX
	MOVQ ldc+136(FP), R9
	SHLQ $3, R9
	MOVQ mr+144(FP), R12
	MOVQ nc+152(FP), R13
	VXORPD  Y0, Y0, Y0
	VMOVAPD Y0, Y1; VMOVAPD Y0, Y2; VMOVAPD Y0, Y3; VMOVAPD Y0, Y4; VMOVAPD Y0, Y5
	VMOVAPD Y0, Y6; VMOVAPD Y0, Y7; VMOVAPD Y0, Y8; VMOVAPD Y0, Y9; VMOVAPD Y0, Y10
	VMOVAPD Y0, Y11
	CMPQ R13, $4
	JLE  ynv1
	CMPQ R13, $8
	JLE  ynv2

yloop3:
	YSTEP3
	DECQ CX
	JNZ  yloop3
	YMASK(8)
	YST3(Y0, Y1, Y2); YST3(Y3, Y4, Y5); YST3(Y6, Y7, Y8); YST3(Y9, Y10, Y11)
	JMP ydone

ynv2:
	YSTEP2
	DECQ CX
	JNZ  ynv2
	YMASK(4)
	YST2(Y0, Y1); YST2(Y3, Y4); YST2(Y6, Y7); YST2(Y9, Y10)
	JMP ydone

ynv1:
	YSTEP1
	DECQ CX
	JNZ  ynv1
	YMASK(0)
	YST1(Y0); YST1(Y3); YST1(Y6); YST1(Y9)

ydone:
	VZEROUPPER

yret:
	RET

// sym3mask<> row n (32 bytes) selects the first n lanes, n = 0..4.
DATA sym3mask<>+0(SB)/8, $0
DATA sym3mask<>+8(SB)/8, $0
DATA sym3mask<>+16(SB)/8, $0
DATA sym3mask<>+24(SB)/8, $0
DATA sym3mask<>+32(SB)/8, $-1
DATA sym3mask<>+40(SB)/8, $0
DATA sym3mask<>+48(SB)/8, $0
DATA sym3mask<>+56(SB)/8, $0
DATA sym3mask<>+64(SB)/8, $-1
DATA sym3mask<>+72(SB)/8, $-1
DATA sym3mask<>+80(SB)/8, $0
DATA sym3mask<>+88(SB)/8, $0
DATA sym3mask<>+96(SB)/8, $-1
DATA sym3mask<>+104(SB)/8, $-1
DATA sym3mask<>+112(SB)/8, $-1
DATA sym3mask<>+120(SB)/8, $0
DATA sym3mask<>+128(SB)/8, $-1
DATA sym3mask<>+136(SB)/8, $-1
DATA sym3mask<>+144(SB)/8, $-1
DATA sym3mask<>+152(SB)/8, $-1
GLOBL sym3mask<>(SB), RODATA|NOPTR, $160
