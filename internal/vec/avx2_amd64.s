//go:build !purego

#include "textflag.h"

// AVX2+FMA vector kernels: 16 elements (four 256-bit vectors) per
// iteration, then single vectors, then a tail of 1-3 elements through
// VMASKMOVPD, which neither reads nor writes the masked-off lanes. The Go
// prototypes and the scalar loops they compute are in stubs_amd64.go.

// tailmasks<>+32-8r holds four quadwords, the first r of them all ones.
DATA tailmasks<>+0(SB)/8, $-1
DATA tailmasks<>+8(SB)/8, $-1
DATA tailmasks<>+16(SB)/8, $-1
DATA tailmasks<>+24(SB)/8, $-1
DATA tailmasks<>+32(SB)/8, $0
DATA tailmasks<>+40(SB)/8, $0
DATA tailmasks<>+48(SB)/8, $0
DATA tailmasks<>+56(SB)/8, $0
GLOBL tailmasks<>(SB), RODATA|NOPTR, $64

// TAILMASK2 loads into Y14 the mask of the low CX lanes (CX < 4).
#define TAILMASK2 LEAQ tailmasks<>+32(SB), AX; SHLQ $3, CX; SUBQ CX, AX; SHRQ $3, CX; VMOVDQU (AX), Y14

// HSUM2 adds the four lanes of Y0 into X0 (clobbers X1).
#define HSUM2 VEXTRACTF128 $1, Y0, X1; VADDPD X1, X0, X0; VPERMILPD $1, X0, X1; VADDSD X1, X0, X0

#define ZERO4Y VXORPD Y0, Y0, Y0; VXORPD Y1, Y1, Y1; VXORPD Y2, Y2, Y2; VXORPD Y3, Y3, Y3

// ABSMASK2 puts 0x7fff...f in every lane of Y15.
#define ABSMASK2 MOVQ $0x7fffffffffffffff, AX; MOVQ AX, X15; VPBROADCASTQ X15, Y15

// func dotAVX2(x, y []float64) float64
TEXT ·dotAVX2(SB), NOSPLIT, $0-56
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), CX
	MOVQ y_base+24(FP), DI
	ZERO4Y
	CMPQ CX, $16
	JB   one

loop:
	VMOVUPD     (SI), Y4
	VMOVUPD     32(SI), Y5
	VMOVUPD     64(SI), Y6
	VMOVUPD     96(SI), Y7
	VFMADD231PD (DI), Y4, Y0
	VFMADD231PD 32(DI), Y5, Y1
	VFMADD231PD 64(DI), Y6, Y2
	VFMADD231PD 96(DI), Y7, Y3
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $16, CX
	CMPQ        CX, $16
	JAE         loop

one:
	CMPQ        CX, $4
	JB          tail
	VMOVUPD     (SI), Y4
	VFMADD231PD (DI), Y4, Y0
	ADDQ        $32, SI
	ADDQ        $32, DI
	SUBQ        $4, CX
	JMP         one

tail:
	TESTQ       CX, CX
	JZ          done
	TAILMASK2
	VMASKMOVPD  (SI), Y14, Y4
	VMASKMOVPD  (DI), Y14, Y5
	VFMADD231PD Y5, Y4, Y1

done:
	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VADDPD Y2, Y0, Y0
	HSUM2
	MOVSD  X0, ret+48(FP)
	VZEROUPPER
	RET

// func axpyAVX2(alpha float64, x, y []float64)
TEXT ·axpyAVX2(SB), NOSPLIT, $0-56
	VBROADCASTSD alpha+0(FP), Y15
	MOVQ         x_base+8(FP), SI
	MOVQ         x_len+16(FP), CX
	MOVQ         y_base+32(FP), DI
	CMPQ         CX, $16
	JB           one

loop:
	VMOVUPD     (DI), Y0
	VMOVUPD     32(DI), Y1
	VMOVUPD     64(DI), Y2
	VMOVUPD     96(DI), Y3
	VFMADD231PD (SI), Y15, Y0
	VFMADD231PD 32(SI), Y15, Y1
	VFMADD231PD 64(SI), Y15, Y2
	VFMADD231PD 96(SI), Y15, Y3
	VMOVUPD     Y0, (DI)
	VMOVUPD     Y1, 32(DI)
	VMOVUPD     Y2, 64(DI)
	VMOVUPD     Y3, 96(DI)
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $16, CX
	CMPQ        CX, $16
	JAE         loop

one:
	CMPQ        CX, $4
	JB          tail
	VMOVUPD     (DI), Y0
	VFMADD231PD (SI), Y15, Y0
	VMOVUPD     Y0, (DI)
	ADDQ        $32, SI
	ADDQ        $32, DI
	SUBQ        $4, CX
	JMP         one

tail:
	TESTQ       CX, CX
	JZ          done
	TAILMASK2
	VMASKMOVPD  (DI), Y14, Y0
	VMASKMOVPD  (SI), Y14, Y4
	VFMADD231PD Y4, Y15, Y0
	VMASKMOVPD  Y0, Y14, (DI)

done:
	VZEROUPPER
	RET

// func scalAVX2(alpha float64, x []float64)
TEXT ·scalAVX2(SB), NOSPLIT, $0-32
	VBROADCASTSD alpha+0(FP), Y15
	MOVQ         x_base+8(FP), SI
	MOVQ         x_len+16(FP), CX
	CMPQ         CX, $16
	JB           one

loop:
	VMULPD  (SI), Y15, Y0
	VMULPD  32(SI), Y15, Y1
	VMULPD  64(SI), Y15, Y2
	VMULPD  96(SI), Y15, Y3
	VMOVUPD Y0, (SI)
	VMOVUPD Y1, 32(SI)
	VMOVUPD Y2, 64(SI)
	VMOVUPD Y3, 96(SI)
	ADDQ    $128, SI
	SUBQ    $16, CX
	CMPQ    CX, $16
	JAE     loop

one:
	CMPQ    CX, $4
	JB      tail
	VMULPD  (SI), Y15, Y0
	VMOVUPD Y0, (SI)
	ADDQ    $32, SI
	SUBQ    $4, CX
	JMP     one

tail:
	TESTQ      CX, CX
	JZ         done
	TAILMASK2
	VMASKMOVPD (SI), Y14, Y0
	VMULPD     Y0, Y15, Y0
	VMASKMOVPD Y0, Y14, (SI)

done:
	VZEROUPPER
	RET

// func asumAVX2(x []float64) float64
TEXT ·asumAVX2(SB), NOSPLIT, $0-32
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), CX
	ABSMASK2
	ZERO4Y
	CMPQ CX, $16
	JB   one

loop:
	VANDPD (SI), Y15, Y4
	VANDPD 32(SI), Y15, Y5
	VANDPD 64(SI), Y15, Y6
	VANDPD 96(SI), Y15, Y7
	VADDPD Y4, Y0, Y0
	VADDPD Y5, Y1, Y1
	VADDPD Y6, Y2, Y2
	VADDPD Y7, Y3, Y3
	ADDQ   $128, SI
	SUBQ   $16, CX
	CMPQ   CX, $16
	JAE    loop

one:
	CMPQ   CX, $4
	JB     tail
	VANDPD (SI), Y15, Y4
	VADDPD Y4, Y0, Y0
	ADDQ   $32, SI
	SUBQ   $4, CX
	JMP    one

tail:
	TESTQ      CX, CX
	JZ         done
	TAILMASK2
	VMASKMOVPD (SI), Y14, Y4
	VANDPD     Y4, Y15, Y4
	VADDPD     Y4, Y1, Y1

done:
	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VADDPD Y2, Y0, Y0
	HSUM2
	MOVSD  X0, ret+24(FP)
	VZEROUPPER
	RET

// func sumSqAVX2(x []float64, scale float64) float64
TEXT ·sumSqAVX2(SB), NOSPLIT, $0-40
	MOVQ         x_base+0(FP), SI
	MOVQ         x_len+8(FP), CX
	VBROADCASTSD scale+24(FP), Y15
	ZERO4Y
	CMPQ         CX, $16
	JB           one

loop:
	VMULPD      (SI), Y15, Y4
	VMULPD      32(SI), Y15, Y5
	VMULPD      64(SI), Y15, Y6
	VMULPD      96(SI), Y15, Y7
	VFMADD231PD Y4, Y4, Y0
	VFMADD231PD Y5, Y5, Y1
	VFMADD231PD Y6, Y6, Y2
	VFMADD231PD Y7, Y7, Y3
	ADDQ        $128, SI
	SUBQ        $16, CX
	CMPQ        CX, $16
	JAE         loop

one:
	CMPQ        CX, $4
	JB          tail
	VMULPD      (SI), Y15, Y4
	VFMADD231PD Y4, Y4, Y0
	ADDQ        $32, SI
	SUBQ        $4, CX
	JMP         one

tail:
	TESTQ       CX, CX
	JZ          done
	TAILMASK2
	VMASKMOVPD  (SI), Y14, Y4
	VMULPD      Y4, Y15, Y4
	VFMADD231PD Y4, Y4, Y1

done:
	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VADDPD Y2, Y0, Y0
	HSUM2
	MOVSD  X0, ret+32(FP)
	VZEROUPPER
	RET

// MAXQ(v, acc) sets acc to the lane-wise signed-integer maximum of v and
// acc (clobbers Y8).
#define MAXQ(v, acc) VPCMPGTQ acc, v, Y8; VBLENDVPD Y8, v, acc, acc

// func maxAbsAVX2(x []float64) float64
TEXT ·maxAbsAVX2(SB), NOSPLIT, $0-32
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), CX
	ABSMASK2
	ZERO4Y
	CMPQ CX, $16
	JB   one

loop:
	VANDPD (SI), Y15, Y4
	VANDPD 32(SI), Y15, Y5
	VANDPD 64(SI), Y15, Y6
	VANDPD 96(SI), Y15, Y7
	MAXQ(Y4, Y0)
	MAXQ(Y5, Y1)
	MAXQ(Y6, Y2)
	MAXQ(Y7, Y3)
	ADDQ   $128, SI
	SUBQ   $16, CX
	CMPQ   CX, $16
	JAE    loop

one:
	CMPQ   CX, $4
	JB     tail
	VANDPD (SI), Y15, Y4
	MAXQ(Y4, Y0)
	ADDQ   $32, SI
	SUBQ   $4, CX
	JMP    one

tail:
	TESTQ      CX, CX
	JZ         done
	TAILMASK2
	VMASKMOVPD (SI), Y14, Y4
	VANDPD     Y4, Y15, Y4
	MAXQ(Y4, Y1)

done:
	MAXQ(Y1, Y0)
	MAXQ(Y3, Y2)
	MAXQ(Y2, Y0)
	VEXTRACTF128 $1, Y0, X1
	VPCMPGTQ     X0, X1, X8
	VBLENDVPD    X8, X1, X0, X0
	VPERMILPD    $1, X0, X1
	VPCMPGTQ     X0, X1, X8
	VBLENDVPD    X8, X1, X0, X0
	MOVSD        X0, ret+24(FP)
	VZEROUPPER
	RET

// func indexAbsAVX2(x []float64, m float64) int
TEXT ·indexAbsAVX2(SB), NOSPLIT, $0-40
	MOVQ         x_base+0(FP), SI
	MOVQ         x_len+8(FP), CX
	VBROADCASTSD m+24(FP), Y13
	ABSMASK2
	XORQ         BX, BX

one:
	CMPQ      CX, $4
	JB        tail
	VANDPD    (SI), Y15, Y4
	VCMPPD    $0, Y13, Y4, Y5      // EQ_OQ
	VMOVMSKPD Y5, AX
	TESTL     AX, AX
	JNZ       found
	ADDQ      $32, SI
	ADDQ      $4, BX
	SUBQ      $4, CX
	JMP       one

tail:
	TESTQ      CX, CX
	JZ         none
	TAILMASK2
	VMASKMOVPD (SI), Y14, Y4
	VANDPD     Y4, Y15, Y4
	VCMPPD     $0, Y13, Y4, Y5
	VANDPD     Y14, Y5, Y5
	VMOVMSKPD  Y5, AX
	TESTL      AX, AX
	JNZ        found

none:
	MOVQ $-1, ret+32(FP)
	VZEROUPPER
	RET

found:
	BSFL AX, AX
	ADDQ BX, AX
	MOVQ AX, ret+32(FP)
	VZEROUPPER
	RET

// func rotAVX2(x, y []float64, c, s float64)
TEXT ·rotAVX2(SB), NOSPLIT, $0-64
	MOVQ         x_base+0(FP), SI
	MOVQ         x_len+8(FP), CX
	MOVQ         y_base+24(FP), DI
	VBROADCASTSD c+48(FP), Y12
	VBROADCASTSD s+56(FP), Y13
	CMPQ         CX, $8
	JB           one

loop:
	VMOVUPD     (SI), Y0
	VMOVUPD     32(SI), Y1
	VMOVUPD     (DI), Y2
	VMOVUPD     32(DI), Y3
	VMULPD      Y2, Y13, Y4
	VMULPD      Y3, Y13, Y5
	VMULPD      Y0, Y13, Y6
	VMULPD      Y1, Y13, Y7
	VFMADD231PD Y0, Y12, Y4
	VFMADD231PD Y1, Y12, Y5
	VFMSUB231PD Y2, Y12, Y6
	VFMSUB231PD Y3, Y12, Y7
	VMOVUPD     Y4, (SI)
	VMOVUPD     Y5, 32(SI)
	VMOVUPD     Y6, (DI)
	VMOVUPD     Y7, 32(DI)
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $8, CX
	CMPQ        CX, $8
	JAE         loop

one:
	CMPQ        CX, $4
	JB          tail
	VMOVUPD     (SI), Y0
	VMOVUPD     (DI), Y2
	VMULPD      Y2, Y13, Y4
	VMULPD      Y0, Y13, Y6
	VFMADD231PD Y0, Y12, Y4
	VFMSUB231PD Y2, Y12, Y6
	VMOVUPD     Y4, (SI)
	VMOVUPD     Y6, (DI)
	ADDQ        $32, SI
	ADDQ        $32, DI
	SUBQ        $4, CX

tail:
	TESTQ       CX, CX
	JZ          done
	TAILMASK2
	VMASKMOVPD  (SI), Y14, Y0
	VMASKMOVPD  (DI), Y14, Y2
	VMULPD      Y2, Y13, Y4
	VMULPD      Y0, Y13, Y6
	VFMADD231PD Y0, Y12, Y4
	VFMSUB231PD Y2, Y12, Y6
	VMASKMOVPD  Y4, Y14, (SI)
	VMASKMOVPD  Y6, Y14, (DI)

done:
	VZEROUPPER
	RET

// HSUMY(y, x) adds the four lanes of y into its low lane x (clobbers X12).
#define HSUMY(y, x) VEXTRACTF128 $1, y, X12; VADDPD X12, x, x; VPERMILPD $1, x, X12; VADDSD X12, x, x

// YUPD2(x, off) does y[off/8] += alpha*x with alpha in X15 (clobbers X13).
#define YUPD2(x, off) VMOVSD off(DX), X13; VFMADD231SD x, X15, X13; VMOVSD X13, off(DX)

// func gemvNAVX2(m, n int, alpha float64, a []float64, lda int, x, y []float64)
TEXT ·gemvNAVX2(SB), NOSPLIT, $0-104
	MOVQ   m+0(FP), R12
	MOVQ   n+8(FP), R13
	VMOVSD alpha+16(FP), X15
	MOVQ   a_base+24(FP), SI
	MOVQ   lda+48(FP), R8
	SHLQ   $3, R8
	MOVQ   x_base+56(FP), DI
	MOVQ   y_base+80(FP), DX
	MOVQ   R13, CX
	ANDQ   $3, CX
	TAILMASK2                        // Y14: the n%4 tail columns

rows4:
	CMPQ   R12, $4
	JB     rows1
	LEAQ   (SI)(R8*1), R9
	LEAQ   (SI)(R8*2), R10
	LEAQ   (R10)(R8*1), R11
	ZERO4Y
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	XORQ   BX, BX
	MOVQ   R13, CX

c8:
	CMPQ        CX, $8
	JB          c4
	VMOVUPD     (DI)(BX*1), Y8
	VMOVUPD     32(DI)(BX*1), Y9
	VFMADD231PD (SI)(BX*1), Y8, Y0
	VFMADD231PD 32(SI)(BX*1), Y9, Y4
	VFMADD231PD (R9)(BX*1), Y8, Y1
	VFMADD231PD 32(R9)(BX*1), Y9, Y5
	VFMADD231PD (R10)(BX*1), Y8, Y2
	VFMADD231PD 32(R10)(BX*1), Y9, Y6
	VFMADD231PD (R11)(BX*1), Y8, Y3
	VFMADD231PD 32(R11)(BX*1), Y9, Y7
	ADDQ        $64, BX
	SUBQ        $8, CX
	JMP         c8

c4:
	CMPQ        CX, $4
	JB          ctail
	VMOVUPD     (DI)(BX*1), Y8
	VFMADD231PD (SI)(BX*1), Y8, Y0
	VFMADD231PD (R9)(BX*1), Y8, Y1
	VFMADD231PD (R10)(BX*1), Y8, Y2
	VFMADD231PD (R11)(BX*1), Y8, Y3
	ADDQ        $32, BX
	SUBQ        $4, CX

ctail:
	TESTQ       CX, CX
	JZ          reduce4
	VMASKMOVPD  (DI)(BX*1), Y14, Y8
	VMASKMOVPD  (SI)(BX*1), Y14, Y10
	VMASKMOVPD  (R9)(BX*1), Y14, Y11
	VFMADD231PD Y10, Y8, Y4
	VFMADD231PD Y11, Y8, Y5
	VMASKMOVPD  (R10)(BX*1), Y14, Y10
	VMASKMOVPD  (R11)(BX*1), Y14, Y11
	VFMADD231PD Y10, Y8, Y6
	VFMADD231PD Y11, Y8, Y7

reduce4:
	VADDPD Y4, Y0, Y0
	VADDPD Y5, Y1, Y1
	VADDPD Y6, Y2, Y2
	VADDPD Y7, Y3, Y3
	HSUMY(Y0, X0)
	HSUMY(Y1, X1)
	HSUMY(Y2, X2)
	HSUMY(Y3, X3)
	YUPD2(X0, 0)
	YUPD2(X1, 8)
	YUPD2(X2, 16)
	YUPD2(X3, 24)
	LEAQ   (SI)(R8*4), SI
	ADDQ   $32, DX
	SUBQ   $4, R12
	JMP    rows4

rows1:
	TESTQ  R12, R12
	JZ     done
	VXORPD Y0, Y0, Y0
	VXORPD Y4, Y4, Y4
	XORQ   BX, BX
	MOVQ   R13, CX

r8:
	CMPQ        CX, $8
	JB          r4
	VMOVUPD     (DI)(BX*1), Y8
	VMOVUPD     32(DI)(BX*1), Y9
	VFMADD231PD (SI)(BX*1), Y8, Y0
	VFMADD231PD 32(SI)(BX*1), Y9, Y4
	ADDQ        $64, BX
	SUBQ        $8, CX
	JMP         r8

r4:
	CMPQ        CX, $4
	JB          rtail
	VMOVUPD     (DI)(BX*1), Y8
	VFMADD231PD (SI)(BX*1), Y8, Y0
	ADDQ        $32, BX
	SUBQ        $4, CX

rtail:
	TESTQ       CX, CX
	JZ          reduce1
	VMASKMOVPD  (DI)(BX*1), Y14, Y8
	VMASKMOVPD  (SI)(BX*1), Y14, Y10
	VFMADD231PD Y10, Y8, Y4

reduce1:
	VADDPD Y4, Y0, Y0
	HSUMY(Y0, X0)
	YUPD2(X0, 0)
	ADDQ   R8, SI
	ADDQ   $8, DX
	DECQ   R12
	JMP    rows1

done:
	VZEROUPPER
	RET

// func gemvTAVX2(m, n int, alpha float64, a []float64, lda int, x, y []float64)
TEXT ·gemvTAVX2(SB), NOSPLIT, $0-104
	MOVQ         m+0(FP), R12
	MOVQ         n+8(FP), R13
	VBROADCASTSD alpha+16(FP), Y15
	MOVQ         a_base+24(FP), SI
	MOVQ         lda+48(FP), R8
	SHLQ         $3, R8
	MOVQ         x_base+56(FP), DI
	MOVQ         y_base+80(FP), DX
	MOVQ         R13, CX
	ANDQ         $3, CX
	TAILMASK2

rows4:
	CMPQ         R12, $4
	JB           rows1
	LEAQ         (SI)(R8*1), R9
	LEAQ         (SI)(R8*2), R10
	LEAQ         (R10)(R8*1), R11
	VBROADCASTSD (DI), Y4
	VBROADCASTSD 8(DI), Y5
	VBROADCASTSD 16(DI), Y6
	VBROADCASTSD 24(DI), Y7
	VMULPD       Y15, Y4, Y4
	VMULPD       Y15, Y5, Y5
	VMULPD       Y15, Y6, Y6
	VMULPD       Y15, Y7, Y7
	XORQ         BX, BX
	MOVQ         R13, CX

c8:
	CMPQ        CX, $8
	JB          c4
	VMOVUPD     (DX)(BX*1), Y0
	VMOVUPD     32(DX)(BX*1), Y1
	VFMADD231PD (SI)(BX*1), Y4, Y0
	VFMADD231PD 32(SI)(BX*1), Y4, Y1
	VFMADD231PD (R9)(BX*1), Y5, Y0
	VFMADD231PD 32(R9)(BX*1), Y5, Y1
	VFMADD231PD (R10)(BX*1), Y6, Y0
	VFMADD231PD 32(R10)(BX*1), Y6, Y1
	VFMADD231PD (R11)(BX*1), Y7, Y0
	VFMADD231PD 32(R11)(BX*1), Y7, Y1
	VMOVUPD     Y0, (DX)(BX*1)
	VMOVUPD     Y1, 32(DX)(BX*1)
	ADDQ        $64, BX
	SUBQ        $8, CX
	JMP         c8

c4:
	CMPQ        CX, $4
	JB          ctail
	VMOVUPD     (DX)(BX*1), Y0
	VFMADD231PD (SI)(BX*1), Y4, Y0
	VFMADD231PD (R9)(BX*1), Y5, Y0
	VFMADD231PD (R10)(BX*1), Y6, Y0
	VFMADD231PD (R11)(BX*1), Y7, Y0
	VMOVUPD     Y0, (DX)(BX*1)
	ADDQ        $32, BX
	SUBQ        $4, CX

ctail:
	TESTQ       CX, CX
	JZ          next4
	VMASKMOVPD  (DX)(BX*1), Y14, Y0
	VMASKMOVPD  (SI)(BX*1), Y14, Y8
	VMASKMOVPD  (R9)(BX*1), Y14, Y9
	VMASKMOVPD  (R10)(BX*1), Y14, Y10
	VMASKMOVPD  (R11)(BX*1), Y14, Y11
	VFMADD231PD Y8, Y4, Y0
	VFMADD231PD Y9, Y5, Y0
	VFMADD231PD Y10, Y6, Y0
	VFMADD231PD Y11, Y7, Y0
	VMASKMOVPD  Y0, Y14, (DX)(BX*1)

next4:
	LEAQ (SI)(R8*4), SI
	ADDQ $32, DI
	SUBQ $4, R12
	JMP  rows4

rows1:
	TESTQ        R12, R12
	JZ           done
	VBROADCASTSD (DI), Y4
	VMULPD       Y15, Y4, Y4
	XORQ         BX, BX
	MOVQ         R13, CX

r8:
	CMPQ        CX, $8
	JB          r4
	VMOVUPD     (DX)(BX*1), Y0
	VMOVUPD     32(DX)(BX*1), Y1
	VFMADD231PD (SI)(BX*1), Y4, Y0
	VFMADD231PD 32(SI)(BX*1), Y4, Y1
	VMOVUPD     Y0, (DX)(BX*1)
	VMOVUPD     Y1, 32(DX)(BX*1)
	ADDQ        $64, BX
	SUBQ        $8, CX
	JMP         r8

r4:
	CMPQ        CX, $4
	JB          rtail
	VMOVUPD     (DX)(BX*1), Y0
	VFMADD231PD (SI)(BX*1), Y4, Y0
	VMOVUPD     Y0, (DX)(BX*1)
	ADDQ        $32, BX
	SUBQ        $4, CX

rtail:
	TESTQ       CX, CX
	JZ          next1
	VMASKMOVPD  (DX)(BX*1), Y14, Y0
	VMASKMOVPD  (SI)(BX*1), Y14, Y8
	VFMADD231PD Y8, Y4, Y0
	VMASKMOVPD  Y0, Y14, (DX)(BX*1)

next1:
	ADDQ R8, SI
	ADDQ $8, DI
	DECQ R12
	JMP  rows1

done:
	VZEROUPPER
	RET
