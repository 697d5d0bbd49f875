//go:build !purego

#include "textflag.h"
#include "avx512_amd64.h"

// AVX-512F vector kernels. Each processes 32 elements (four 512-bit
// vectors) per iteration with independent accumulators, then single
// vectors, then a masked tail, so there is no scalar loop. Masked-off
// lanes of a load are never read, so a tail never touches memory beyond
// the slice. The Go prototypes and the scalar loops they compute are in
// stubs_amd64.go.

// ABSMASK puts 0x7fff...f in every lane of Z31.
#define ABSMASK MOVQ $0x7fffffffffffffff, AX; VPBROADCASTQ AX, Z31

// func dotAVX512(x, y []float64) float64
TEXT ·dotAVX512(SB), NOSPLIT, $0-56
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), CX
	MOVQ y_base+24(FP), DI
	ZERO4
	CMPQ CX, $32
	JB   one

loop:
	DOT32(SI, DI)
	SUBQ        $32, CX
	CMPQ        CX, $32
	JAE         loop

one:
	CMPQ        CX, $8
	JB          tail
	VMOVUPD     (SI), Z4
	VFMADD231PD (DI), Z4, Z0
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $8, CX
	JMP         one

tail:
	TESTQ       CX, CX
	JZ          done
	TAILMASK
	VMOVUPD.Z   (SI), K1, Z4
	VMOVUPD.Z   (DI), K1, Z5
	VFMADD231PD Z5, Z4, Z1

done:
	VADDPD Z1, Z0, Z0
	VADDPD Z3, Z2, Z2
	VADDPD Z2, Z0, Z0
	HSUM
	MOVSD  X0, ret+48(FP)
	VZEROUPPER
	RET

// func axpyAVX512(alpha float64, x, y []float64)
TEXT ·axpyAVX512(SB), NOSPLIT, $0-56
	VBROADCASTSD alpha+0(FP), Z31
	MOVQ         x_base+8(FP), SI
	MOVQ         x_len+16(FP), CX
	MOVQ         y_base+32(FP), DI
	CMPQ         CX, $32
	JB           one

loop:
	VMOVUPD     (DI), Z0
	VMOVUPD     64(DI), Z1
	VMOVUPD     128(DI), Z2
	VMOVUPD     192(DI), Z3
	VFMADD231PD (SI), Z31, Z0
	VFMADD231PD 64(SI), Z31, Z1
	VFMADD231PD 128(SI), Z31, Z2
	VFMADD231PD 192(SI), Z31, Z3
	VMOVUPD     Z0, (DI)
	VMOVUPD     Z1, 64(DI)
	VMOVUPD     Z2, 128(DI)
	VMOVUPD     Z3, 192(DI)
	ADDQ        $256, SI
	ADDQ        $256, DI
	SUBQ        $32, CX
	CMPQ        CX, $32
	JAE         loop

one:
	CMPQ        CX, $8
	JB          tail
	VMOVUPD     (DI), Z0
	VFMADD231PD (SI), Z31, Z0
	VMOVUPD     Z0, (DI)
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $8, CX
	JMP         one

tail:
	TESTQ       CX, CX
	JZ          done
	TAILMASK
	VMOVUPD.Z   (DI), K1, Z0
	VMOVUPD.Z   (SI), K1, Z4
	VFMADD231PD Z4, Z31, Z0
	VMOVUPD     Z0, K1, (DI)

done:
	VZEROUPPER
	RET

// func scalAVX512(alpha float64, x []float64)
TEXT ·scalAVX512(SB), NOSPLIT, $0-32
	VBROADCASTSD alpha+0(FP), Z31
	MOVQ         x_base+8(FP), SI
	MOVQ         x_len+16(FP), CX
	CMPQ         CX, $32
	JB           one

loop:
	VMULPD  (SI), Z31, Z0
	VMULPD  64(SI), Z31, Z1
	VMULPD  128(SI), Z31, Z2
	VMULPD  192(SI), Z31, Z3
	VMOVUPD Z0, (SI)
	VMOVUPD Z1, 64(SI)
	VMOVUPD Z2, 128(SI)
	VMOVUPD Z3, 192(SI)
	ADDQ    $256, SI
	SUBQ    $32, CX
	CMPQ    CX, $32
	JAE     loop

one:
	CMPQ    CX, $8
	JB      tail
	VMULPD  (SI), Z31, Z0
	VMOVUPD Z0, (SI)
	ADDQ    $64, SI
	SUBQ    $8, CX
	JMP     one

tail:
	TESTQ     CX, CX
	JZ        done
	TAILMASK
	VMOVUPD.Z (SI), K1, Z0
	VMULPD    Z0, Z31, Z0
	VMOVUPD   Z0, K1, (SI)

done:
	VZEROUPPER
	RET

// func asumAVX512(x []float64) float64
TEXT ·asumAVX512(SB), NOSPLIT, $0-32
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), CX
	ABSMASK
	ZERO4
	CMPQ CX, $32
	JB   one

loop:
	VPANDQ (SI), Z31, Z4
	VPANDQ 64(SI), Z31, Z5
	VPANDQ 128(SI), Z31, Z6
	VPANDQ 192(SI), Z31, Z7
	VADDPD Z4, Z0, Z0
	VADDPD Z5, Z1, Z1
	VADDPD Z6, Z2, Z2
	VADDPD Z7, Z3, Z3
	ADDQ   $256, SI
	SUBQ   $32, CX
	CMPQ   CX, $32
	JAE    loop

one:
	CMPQ   CX, $8
	JB     tail
	VPANDQ (SI), Z31, Z4
	VADDPD Z4, Z0, Z0
	ADDQ   $64, SI
	SUBQ   $8, CX
	JMP    one

tail:
	TESTQ     CX, CX
	JZ        done
	TAILMASK
	VMOVUPD.Z (SI), K1, Z4
	VPANDQ    Z4, Z31, Z4
	VADDPD    Z4, Z1, Z1

done:
	VADDPD Z1, Z0, Z0
	VADDPD Z3, Z2, Z2
	VADDPD Z2, Z0, Z0
	HSUM
	MOVSD  X0, ret+24(FP)
	VZEROUPPER
	RET

// func sumSqAVX512(x []float64, scale float64) float64
TEXT ·sumSqAVX512(SB), NOSPLIT, $0-40
	MOVQ         x_base+0(FP), SI
	MOVQ         x_len+8(FP), CX
	VBROADCASTSD scale+24(FP), Z31
	ZERO4
	CMPQ         CX, $32
	JB           one

loop:
	VMULPD      (SI), Z31, Z4
	VMULPD      64(SI), Z31, Z5
	VMULPD      128(SI), Z31, Z6
	VMULPD      192(SI), Z31, Z7
	VFMADD231PD Z4, Z4, Z0
	VFMADD231PD Z5, Z5, Z1
	VFMADD231PD Z6, Z6, Z2
	VFMADD231PD Z7, Z7, Z3
	ADDQ        $256, SI
	SUBQ        $32, CX
	CMPQ        CX, $32
	JAE         loop

one:
	CMPQ        CX, $8
	JB          tail
	VMULPD      (SI), Z31, Z4
	VFMADD231PD Z4, Z4, Z0
	ADDQ        $64, SI
	SUBQ        $8, CX
	JMP         one

tail:
	TESTQ       CX, CX
	JZ          done
	TAILMASK
	VMOVUPD.Z   (SI), K1, Z4
	VMULPD      Z4, Z31, Z4
	VFMADD231PD Z4, Z4, Z1

done:
	VADDPD Z1, Z0, Z0
	VADDPD Z3, Z2, Z2
	VADDPD Z2, Z0, Z0
	HSUM
	MOVSD  X0, ret+32(FP)
	VZEROUPPER
	RET

// func maxAbsAVX512(x []float64) float64
TEXT ·maxAbsAVX512(SB), NOSPLIT, $0-32
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), CX
	ABSMASK
	ZERO4
	CMPQ CX, $32
	JB   one

loop:
	VPANDQ  (SI), Z31, Z4
	VPANDQ  64(SI), Z31, Z5
	VPANDQ  128(SI), Z31, Z6
	VPANDQ  192(SI), Z31, Z7
	VPMAXSQ Z4, Z0, Z0
	VPMAXSQ Z5, Z1, Z1
	VPMAXSQ Z6, Z2, Z2
	VPMAXSQ Z7, Z3, Z3
	ADDQ    $256, SI
	SUBQ    $32, CX
	CMPQ    CX, $32
	JAE     loop

one:
	CMPQ    CX, $8
	JB      tail
	VPANDQ  (SI), Z31, Z4
	VPMAXSQ Z4, Z0, Z0
	ADDQ    $64, SI
	SUBQ    $8, CX
	JMP     one

tail:
	TESTQ     CX, CX
	JZ        done
	TAILMASK
	VMOVUPD.Z (SI), K1, Z4
	VPANDQ    Z4, Z31, Z4
	VPMAXSQ   Z4, Z1, Z1

done:
	VPMAXSQ    Z1, Z0, Z0
	VPMAXSQ    Z3, Z2, Z2
	VPMAXSQ    Z2, Z0, Z0
	VSHUFI64X2 $0x4e, Z0, Z0, Z1
	VPMAXSQ    Z1, Z0, Z0
	VSHUFI64X2 $0xb1, Z0, Z0, Z1
	VPMAXSQ    Z1, Z0, Z0
	VPSHUFD    $0x4e, Z0, Z1
	VPMAXSQ    Z1, Z0, Z0
	MOVSD      X0, ret+24(FP)
	VZEROUPPER
	RET

// func indexAbsAVX512(x []float64, m float64) int
TEXT ·indexAbsAVX512(SB), NOSPLIT, $0-40
	MOVQ         x_base+0(FP), SI
	MOVQ         x_len+8(FP), CX
	VBROADCASTSD m+24(FP), Z30
	ABSMASK
	XORQ         BX, BX          // index of SI's first element

one:
	CMPQ   CX, $8
	JB     tail
	VPANDQ (SI), Z31, Z4
	VCMPPD $0, Z30, Z4, K1       // EQ_OQ
	KMOVW  K1, AX
	TESTL  AX, AX
	JNZ    found
	ADDQ   $64, SI
	ADDQ   $8, BX
	SUBQ   $8, CX
	JMP    one

tail:
	TESTQ     CX, CX
	JZ        none
	MOVQ      $1, DX
	SHLQ      CX, DX
	DECQ      DX
	KMOVW     DX, K1
	VMOVUPD.Z (SI), K1, Z4
	VPANDQ    Z4, Z31, Z4
	VCMPPD    $0, Z30, Z4, K2
	KMOVW     K2, AX
	ANDL      DX, AX
	TESTL     AX, AX
	JNZ       found

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

// func rotAVX512(x, y []float64, c, s float64)
TEXT ·rotAVX512(SB), NOSPLIT, $0-64
	MOVQ         x_base+0(FP), SI
	MOVQ         x_len+8(FP), CX
	MOVQ         y_base+24(FP), DI
	VBROADCASTSD c+48(FP), Z30
	VBROADCASTSD s+56(FP), Z31
	CMPQ         CX, $16
	JB           one

loop:
	ROT16
	STORE16
	SUBQ        $16, CX
	CMPQ        CX, $16
	JAE         loop

one:
	CMPQ        CX, $8
	JB          tail
	ROT8
	STORE8
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $8, CX
	JMP         one

tail:
	TESTQ       CX, CX
	JZ          done
	TAILMASK
	VMOVUPD.Z   (SI), K1, Z0
	VMOVUPD.Z   (DI), K1, Z2
	VMULPD      Z2, Z31, Z4
	VMULPD      Z0, Z31, Z6
	VFMADD231PD Z0, Z30, Z4
	VFMSUB231PD Z2, Z30, Z6
	VMOVUPD     Z4, K1, (SI)
	VMOVUPD     Z6, K1, (DI)

done:
	VZEROUPPER
	RET

// HSUMR(z, y, x) adds the eight lanes of z into its low lane x
// (clobbers Y12/X12).
#define HSUMR(z, y, x) VEXTRACTF64X4 $1, z, Y12; VADDPD Y12, y, y; VEXTRACTF128 $1, y, X12; VADDPD X12, x, x; VPERMILPD $1, x, X12; VADDSD X12, x, x

// YUPDATE(x, off) does y[off/8] += alpha*x with alpha in X15.
#define YUPDATE(x, off) VMOVSD off(DX), X13; VFMADD231SD x, X15, X13; VMOVSD X13, off(DX)

// func gemvNAVX512(m, n int, alpha float64, a []float64, lda int, x, y []float64)
TEXT ·gemvNAVX512(SB), NOSPLIT, $0-104
	MOVQ   m+0(FP), R12
	MOVQ   n+8(FP), R13
	VMOVSD alpha+16(FP), X15
	MOVQ   a_base+24(FP), SI
	MOVQ   lda+48(FP), R8
	SHLQ   $3, R8
	MOVQ   x_base+56(FP), DI
	MOVQ   y_base+80(FP), DX
	MOVQ   R13, CX
	ANDQ   $7, CX
	TAILMASK                         // K1: the n%8 tail columns

rows4:
	CMPQ R12, $4
	JB   rows1
	LEAQ (SI)(R8*1), R9
	LEAQ (SI)(R8*2), R10
	LEAQ (R10)(R8*1), R11
	ZERO4
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	XORQ   BX, BX
	MOVQ   R13, CX

c16:
	CMPQ        CX, $16
	JB          c8
	VMOVUPD     (DI)(BX*1), Z8
	VMOVUPD     64(DI)(BX*1), Z9
	VFMADD231PD (SI)(BX*1), Z8, Z0
	VFMADD231PD 64(SI)(BX*1), Z9, Z4
	VFMADD231PD (R9)(BX*1), Z8, Z1
	VFMADD231PD 64(R9)(BX*1), Z9, Z5
	VFMADD231PD (R10)(BX*1), Z8, Z2
	VFMADD231PD 64(R10)(BX*1), Z9, Z6
	VFMADD231PD (R11)(BX*1), Z8, Z3
	VFMADD231PD 64(R11)(BX*1), Z9, Z7
	ADDQ        $128, BX
	SUBQ        $16, CX
	JMP         c16

c8:
	CMPQ        CX, $8
	JB          ctail
	VMOVUPD     (DI)(BX*1), Z8
	VFMADD231PD (SI)(BX*1), Z8, Z0
	VFMADD231PD (R9)(BX*1), Z8, Z1
	VFMADD231PD (R10)(BX*1), Z8, Z2
	VFMADD231PD (R11)(BX*1), Z8, Z3
	ADDQ        $64, BX
	SUBQ        $8, CX

ctail:
	TESTQ       CX, CX
	JZ          reduce4
	VMOVUPD.Z   (DI)(BX*1), K1, Z8
	VMOVUPD.Z   (SI)(BX*1), K1, Z10
	VMOVUPD.Z   (R9)(BX*1), K1, Z11
	VFMADD231PD Z10, Z8, Z4
	VFMADD231PD Z11, Z8, Z5
	VMOVUPD.Z   (R10)(BX*1), K1, Z10
	VMOVUPD.Z   (R11)(BX*1), K1, Z11
	VFMADD231PD Z10, Z8, Z6
	VFMADD231PD Z11, Z8, Z7

reduce4:
	VADDPD Z4, Z0, Z0
	VADDPD Z5, Z1, Z1
	VADDPD Z6, Z2, Z2
	VADDPD Z7, Z3, Z3
	HSUMR(Z0, Y0, X0)
	HSUMR(Z1, Y1, X1)
	HSUMR(Z2, Y2, X2)
	HSUMR(Z3, Y3, X3)
	YUPDATE(X0, 0)
	YUPDATE(X1, 8)
	YUPDATE(X2, 16)
	YUPDATE(X3, 24)
	LEAQ   (SI)(R8*4), SI
	ADDQ   $32, DX
	SUBQ   $4, R12
	JMP    rows4

rows1:
	TESTQ  R12, R12
	JZ     done
	VPXORQ Z0, Z0, Z0
	VPXORQ Z4, Z4, Z4
	XORQ   BX, BX
	MOVQ   R13, CX

r16:
	CMPQ        CX, $16
	JB          r8
	VMOVUPD     (DI)(BX*1), Z8
	VMOVUPD     64(DI)(BX*1), Z9
	VFMADD231PD (SI)(BX*1), Z8, Z0
	VFMADD231PD 64(SI)(BX*1), Z9, Z4
	ADDQ        $128, BX
	SUBQ        $16, CX
	JMP         r16

r8:
	CMPQ        CX, $8
	JB          rtail
	VMOVUPD     (DI)(BX*1), Z8
	VFMADD231PD (SI)(BX*1), Z8, Z0
	ADDQ        $64, BX
	SUBQ        $8, CX

rtail:
	TESTQ       CX, CX
	JZ          reduce1
	VMOVUPD.Z   (DI)(BX*1), K1, Z8
	VMOVUPD.Z   (SI)(BX*1), K1, Z10
	VFMADD231PD Z10, Z8, Z4

reduce1:
	VADDPD Z4, Z0, Z0
	HSUMR(Z0, Y0, X0)
	YUPDATE(X0, 0)
	ADDQ   R8, SI
	ADDQ   $8, DX
	DECQ   R12
	JMP    rows1

done:
	VZEROUPPER
	RET

// func gemvTAVX512(m, n int, alpha float64, a []float64, lda int, x, y []float64)
TEXT ·gemvTAVX512(SB), NOSPLIT, $0-104
	MOVQ         m+0(FP), R12
	MOVQ         n+8(FP), R13
	VBROADCASTSD alpha+16(FP), Z15
	MOVQ         a_base+24(FP), SI
	MOVQ         lda+48(FP), R8
	SHLQ         $3, R8
	MOVQ         x_base+56(FP), DI
	MOVQ         y_base+80(FP), DX
	MOVQ         R13, CX
	ANDQ         $7, CX
	TAILMASK

rows4:
	CMPQ         R12, $4
	JB           rows1
	LEAQ         (SI)(R8*1), R9
	LEAQ         (SI)(R8*2), R10
	LEAQ         (R10)(R8*1), R11
	VBROADCASTSD (DI), Z4
	VBROADCASTSD 8(DI), Z5
	VBROADCASTSD 16(DI), Z6
	VBROADCASTSD 24(DI), Z7
	VMULPD       Z15, Z4, Z4
	VMULPD       Z15, Z5, Z5
	VMULPD       Z15, Z6, Z6
	VMULPD       Z15, Z7, Z7
	XORQ         BX, BX
	MOVQ         R13, CX

c16:
	CMPQ        CX, $16
	JB          c8
	VMOVUPD     (DX)(BX*1), Z0
	VMOVUPD     64(DX)(BX*1), Z1
	VFMADD231PD (SI)(BX*1), Z4, Z0
	VFMADD231PD 64(SI)(BX*1), Z4, Z1
	VFMADD231PD (R9)(BX*1), Z5, Z0
	VFMADD231PD 64(R9)(BX*1), Z5, Z1
	VFMADD231PD (R10)(BX*1), Z6, Z0
	VFMADD231PD 64(R10)(BX*1), Z6, Z1
	VFMADD231PD (R11)(BX*1), Z7, Z0
	VFMADD231PD 64(R11)(BX*1), Z7, Z1
	VMOVUPD     Z0, (DX)(BX*1)
	VMOVUPD     Z1, 64(DX)(BX*1)
	ADDQ        $128, BX
	SUBQ        $16, CX
	JMP         c16

c8:
	CMPQ        CX, $8
	JB          ctail
	VMOVUPD     (DX)(BX*1), Z0
	VFMADD231PD (SI)(BX*1), Z4, Z0
	VFMADD231PD (R9)(BX*1), Z5, Z0
	VFMADD231PD (R10)(BX*1), Z6, Z0
	VFMADD231PD (R11)(BX*1), Z7, Z0
	VMOVUPD     Z0, (DX)(BX*1)
	ADDQ        $64, BX
	SUBQ        $8, CX

ctail:
	TESTQ       CX, CX
	JZ          next4
	VMOVUPD.Z   (DX)(BX*1), K1, Z0
	VMOVUPD.Z   (SI)(BX*1), K1, Z8
	VMOVUPD.Z   (R9)(BX*1), K1, Z9
	VMOVUPD.Z   (R10)(BX*1), K1, Z10
	VMOVUPD.Z   (R11)(BX*1), K1, Z11
	VFMADD231PD Z8, Z4, Z0
	VFMADD231PD Z9, Z5, Z0
	VFMADD231PD Z10, Z6, Z0
	VFMADD231PD Z11, Z7, Z0
	VMOVUPD     Z0, K1, (DX)(BX*1)

next4:
	LEAQ (SI)(R8*4), SI
	ADDQ $32, DI
	SUBQ $4, R12
	JMP  rows4

rows1:
	TESTQ        R12, R12
	JZ           done
	VBROADCASTSD (DI), Z4
	VMULPD       Z15, Z4, Z4
	XORQ         BX, BX
	MOVQ         R13, CX

r16:
	CMPQ        CX, $16
	JB          r8
	VMOVUPD     (DX)(BX*1), Z0
	VMOVUPD     64(DX)(BX*1), Z1
	VFMADD231PD (SI)(BX*1), Z4, Z0
	VFMADD231PD 64(SI)(BX*1), Z4, Z1
	VMOVUPD     Z0, (DX)(BX*1)
	VMOVUPD     Z1, 64(DX)(BX*1)
	ADDQ        $128, BX
	SUBQ        $16, CX
	JMP         r16

r8:
	CMPQ        CX, $8
	JB          rtail
	VMOVUPD     (DX)(BX*1), Z0
	VFMADD231PD (SI)(BX*1), Z4, Z0
	VMOVUPD     Z0, (DX)(BX*1)
	ADDQ        $64, BX
	SUBQ        $8, CX

rtail:
	TESTQ       CX, CX
	JZ          next1
	VMOVUPD.Z   (DX)(BX*1), K1, Z0
	VMOVUPD.Z   (SI)(BX*1), K1, Z8
	VFMADD231PD Z8, Z4, Z0
	VMOVUPD     Z0, K1, (DX)(BX*1)

next1:
	ADDQ R8, SI
	ADDQ $8, DI
	DECQ R12
	JMP  rows1

done:
	VZEROUPPER
	RET
