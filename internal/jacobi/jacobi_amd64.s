//go:build !purego

#include "textflag.h"
#include "avx512_amd64.h"

// Batched Jacobi kernels (see jacobi.go and jacobi_amd64.go): the loops
// over the pairs of a batch run here, so that a step of a Jacobi sweep
// costs one call. Within a pair the code is that of dot and rot in
// avx512_amd64.s and avx2_amd64.s: wide unrolled iterations, then single
// vectors, then a masked tail that neither reads nor writes past the n
// elements of a vector. The tail mask depends only on n and is set once.

// PAIRPTRS loads the two vectors of the pair at (R10) as pointers SI and
// DI into x (R8).
#define PAIRPTRS MOVQ (R10), SI; MOVQ 8(R10), DI; LEAQ (R8)(SI*8), SI; LEAQ (R8)(DI*8), DI

// func rotPairsAVX512(x []float64, n int, o []int, cs []float64)
TEXT ·rotPairsAVX512(SB), NOSPLIT, $0-80
	MOVQ x_base+0(FP), R8
	MOVQ n+24(FP), R9
	MOVQ o_base+32(FP), R10
	MOVQ cs_base+56(FP), R11
	MOVQ cs_len+64(FP), R12
	SHRQ $1, R12
	MOVQ R9, CX
	ANDQ $7, CX
	TAILMASK
	TESTQ R12, R12
	JZ    done

pair:
	PAIRPTRS
	VBROADCASTSD (R11), Z30
	VBROADCASTSD 8(R11), Z31
	MOVQ         R9, CX
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

tail:
	TESTQ       CX, CX
	JZ          next
	VMOVUPD.Z   (SI), K1, Z0
	VMOVUPD.Z   (DI), K1, Z2
	VMULPD      Z2, Z31, Z4
	VMULPD      Z0, Z31, Z6
	VFMADD231PD Z0, Z30, Z4
	VFMSUB231PD Z2, Z30, Z6
	VMOVUPD     Z4, K1, (SI)
	VMOVUPD     Z6, K1, (DI)

next:
	ADDQ $16, R10
	ADDQ $16, R11
	DECQ R12
	JNZ  pair

done:
	VZEROUPPER
	RET

// jtailmasks<>+32-8r holds four quadwords, the first r of them all ones.
DATA jtailmasks<>+0(SB)/8, $-1
DATA jtailmasks<>+8(SB)/8, $-1
DATA jtailmasks<>+16(SB)/8, $-1
DATA jtailmasks<>+24(SB)/8, $-1
DATA jtailmasks<>+32(SB)/8, $0
DATA jtailmasks<>+40(SB)/8, $0
DATA jtailmasks<>+48(SB)/8, $0
DATA jtailmasks<>+56(SB)/8, $0
GLOBL jtailmasks<>(SB), RODATA|NOPTR, $64

// JTAILMASK2 loads into Y14 the mask of the low CX lanes (CX < 4).
#define JTAILMASK2 LEAQ jtailmasks<>+32(SB), AX; SHLQ $3, CX; SUBQ CX, AX; VMOVDQU (AX), Y14

// JHSUM2 adds the four lanes of Y0 into X0 (clobbers X1).
#define JHSUM2 VEXTRACTF128 $1, Y0, X1; VADDPD X1, X0, X0; VPERMILPD $1, X0, X1; VADDSD X1, X0, X0

// func rotPairsAVX2(x []float64, n int, o []int, cs []float64)
TEXT ·rotPairsAVX2(SB), NOSPLIT, $0-80
	MOVQ x_base+0(FP), R8
	MOVQ n+24(FP), R9
	MOVQ o_base+32(FP), R10
	MOVQ cs_base+56(FP), R11
	MOVQ cs_len+64(FP), R12
	SHRQ $1, R12
	MOVQ R9, CX
	ANDQ $3, CX
	JTAILMASK2
	TESTQ R12, R12
	JZ    done

pair:
	PAIRPTRS
	VBROADCASTSD (R11), Y12
	VBROADCASTSD 8(R11), Y13
	MOVQ         R9, CX
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
	JZ          next
	VMASKMOVPD  (SI), Y14, Y0
	VMASKMOVPD  (DI), Y14, Y2
	VMULPD      Y2, Y13, Y4
	VMULPD      Y0, Y13, Y6
	VFMADD231PD Y0, Y12, Y4
	VFMSUB231PD Y2, Y12, Y6
	VMASKMOVPD  Y4, Y14, (SI)
	VMASKMOVPD  Y6, Y14, (DI)

next:
	ADDQ $16, R10
	ADDQ $16, R11
	DECQ R12
	JNZ  pair

done:
	VZEROUPPER
	RET

// Constants of jacobiPlanAVX512 (float64 bit patterns).
#define C_FOUR  $0x4010000000000000 // 4
#define C_ONE   $0x3ff0000000000000 // 1
#define C_SIGN  $0x8000000000000000 // sign bit
#define C_ABS   $0x7fffffffffffffff // all but the sign bit
#define C_HI    $0x58f0000000000000 // SqMax = 2^400
#define C_LO    $0x26f0000000000000 // SqMin = 2^-400
#define C_CENT  $0x3f847ae147ae147b // 0.01

// Lane permutations that interleave c and s for cs.
DATA jperm<>+0(SB)/8, $0
DATA jperm<>+8(SB)/8, $8
DATA jperm<>+16(SB)/8, $1
DATA jperm<>+24(SB)/8, $9
DATA jperm<>+32(SB)/8, $2
DATA jperm<>+40(SB)/8, $10
DATA jperm<>+48(SB)/8, $3
DATA jperm<>+56(SB)/8, $11
DATA jperm<>+64(SB)/8, $4
DATA jperm<>+72(SB)/8, $12
DATA jperm<>+80(SB)/8, $5
DATA jperm<>+88(SB)/8, $13
DATA jperm<>+96(SB)/8, $6
DATA jperm<>+104(SB)/8, $14
DATA jperm<>+112(SB)/8, $7
DATA jperm<>+120(SB)/8, $15
GLOBL jperm<>(SB), RODATA|NOPTR, $128

// jodd selects the odd lanes of two vectors (the s slots of cs, where
// jacobiPlanAVX512 keeps the dot products).
DATA jodd<>+0(SB)/8, $1
DATA jodd<>+8(SB)/8, $3
DATA jodd<>+16(SB)/8, $5
DATA jodd<>+24(SB)/8, $7
DATA jodd<>+32(SB)/8, $9
DATA jodd<>+40(SB)/8, $11
DATA jodd<>+48(SB)/8, $13
DATA jodd<>+56(SB)/8, $15
GLOBL jodd<>(SB), RODATA|NOPTR, $64

// The frame of jacobiPlanAVX512: for the group of (up to) 8 pairs, the
// pointers to the rows p and q and to the rows their dot products are
// formed with, the rotations, the bit masks of the pairs rotated and of
// the norms to recompute; the counters; the start of cs; the group's
// size and masks.
#define QPP 0
#define QPQ 64
#define QW1 128
#define QW2 192
#define QC 256
#define QS 320
#define QMROT 384
#define QMRA 392
#define QMRB 400
#define QROT 408
#define QLEFT 416
#define QCS 424
#define QCNT 432
#define QHASP 440
#define QHASQ 448

// Offsets in a group record (int32s; see planGroup in jacobiplan.go).
#define GOWN 4
#define GHASP 8
#define GHASQ 12
#define GP 16
#define GQ 48
#define GWP 80
#define GWQ 112
#define GTP 144
#define GTQ 176
#define GSIZE 208

// QPTRS sets the eight pointers at off in the frame to x + 8*ld*row for
// the eight int32 rows at roff(R11), using Z1 (8*ld) and Z2 (x); clobbers
// Z3.
#define QPTRS(roff, off) VPMOVZXDQ roff(R11), Z3; VPMULUDQ Z1, Z3, Z3; VPADDQ Z2, Z3, Z3; VMOVDQU64 Z3, off(SP)

// func jacobiPlanAVX512(x []float64, n, ld int, groups []int32, sq []float64, tol2 float64, cs []float64) (rotated, left int, maxCos2, maxSin float64)
TEXT ·jacobiPlanAVX512(SB), $456-152
	MOVQ         x_base+0(FP), R8
	MOVQ         n+24(FP), R9
	MOVQ         ld+32(FP), R10
	SHLQ         $3, R10                // row stride in bytes
	MOVQ         groups_base+40(FP), R11
	MOVQ         groups_len+48(FP), R12
	LEAQ         (R11)(R12*4), R12      // end of the records
	MOVQ         sq_base+64(FP), R13
	MOVQ         cs_base+96(FP), R14    // cs of the current group
	MOVQ         R14, QCS(SP)
	VBROADCASTSD tol2+88(FP), Z29
	MOVQ         C_FOUR, AX
	VPBROADCASTQ AX, Z22
	MOVQ         C_ONE, AX
	VPBROADCASTQ AX, Z23
	MOVQ         C_SIGN, AX
	VPBROADCASTQ AX, Z24
	MOVQ         C_ABS, AX
	VPBROADCASTQ AX, Z25
	MOVQ         C_HI, AX
	VPBROADCASTQ AX, Z26
	MOVQ         C_LO, AX
	VPBROADCASTQ AX, Z27
	MOVQ         C_CENT, AX
	VPBROADCASTQ AX, Z28
	VPXORQ       Z20, Z20, Z20          // max cos²
	VPXORQ       Z21, Z21, Z21          // max |s|
	MOVQ         $0, QROT(SP)
	MOVQ         $0, QLEFT(SP)

qgroup:
	CMPQ R11, R12
	JAE  qfinish
	MOVL (R11), BX                      // pairs in the group
	MOVQ BX, QCNT(SP)
	MOVL GHASP(R11), AX
	MOVQ AX, QHASP(SP)
	MOVL GHASQ(R11), AX
	MOVQ AX, QHASQ(SP)

	// Phase 1: the row pointers; the dot products that no earlier pair
	// formed, into the s slots of cs.
	VPBROADCASTQ R10, Z1
	VPBROADCASTQ R8, Z2
	QPTRS(GP, QPP)
	QPTRS(GQ, QPQ)
	QPTRS(GWP, QW1)
	QPTRS(GWQ, QW2)
	MOVL GOWN(R11), DX

q1pair:
	TESTQ  DX, DX
	JZ     q2
	BSFQ   DX, AX                       // the next pair
	LEAQ   -1(DX), CX
	ANDQ   CX, DX
	MOVQ   QPP(SP)(AX*8), SI
	MOVQ   QPQ(SP)(AX*8), DI
	ZERO4
	MOVQ   R9, CX
	CMPQ   CX, $32
	JB     q1d16

q1d32:
	DOT32(SI, DI)
	SUBQ        $32, CX
	CMPQ        CX, $32
	JAE         q1d32

q1d16:
	CMPQ        CX, $16
	JB          q1d8
	DOT16(SI, DI)
	SUBQ        $16, CX

q1d8:
	TESTQ       CX, CX
	JZ          q1sum
	DOT8(SI, DI)

q1sum:
	DOTSUM
	SHLQ   $4, AX
	VMOVSD X0, 8(R14)(AX*1)             // the s slot of the pair
	JMP    q1pair

q2:
	// Phase 2: the rotations of the group, one pair per lane (the
	// formulas of jacobiRotation), with g read from the s slots of cs.
	MOVQ        BX, CX
	MOVQ        $1, AX
	SHLQ        CX, AX
	DECQ        AX
	KMOVW       AX, K5
	VPMOVZXDQ   GP(R11), Z6             // indices of the p rows
	VPMOVZXDQ   GQ(R11), Z7             // and of the q rows
	VPXORQ      Z9, Z9, Z9
	VPXORQ      Z10, Z10, Z10
	KMOVW       K5, K2
	VGATHERQPD  (R13)(Z6*8), K2, Z9     // a
	KMOVW       K5, K2
	VGATHERQPD  (R13)(Z7*8), K2, Z10    // b
	MOVQ        BX, CX                  // g: the s slots of cs
	SHLQ        $1, CX
	MOVQ        $1, AX
	SHLQ        CX, AX
	DECQ        AX
	KMOVW       AX, K2
	SHRQ        $8, AX
	KMOVW       AX, K3
	VMOVUPD.Z   (R14), K2, Z0
	VMOVUPD.Z   64(R14), K3, Z1
	VMOVDQU64   jodd<>(SB), Z8
	VPERMI2PD   Z1, Z0, Z8
	VCMPPD      $0x1d, Z27, Z9, K5, K6  // a >= lo
	VCMPPD      $0x12, Z26, Z9, K6, K6  // a <= hi
	VCMPPD      $0x1d, Z27, Z10, K6, K6 // b >= lo
	VCMPPD      $0x12, Z26, Z10, K6, K6 // b <= hi
	KMOVW       K6, CX
	POPCNTL     CX, CX
	MOVQ        BX, AX
	SUBQ        CX, AX
	ADDQ        AX, QLEFT(SP)
	VMULPD      Z8, Z8, Z11             // gg
	VMULPD      Z10, Z9, Z12            // ab
	VMULPD      Z12, Z29, Z13           // tol2*ab
	VCMPPD      $0x1e, Z13, Z11, K6, K7 // gg > tol2*ab
	VSUBPD      Z9, Z10, Z13            // d = b - a
	VMULPD      Z22, Z11, Z14           // 4gg
	VFMADD231PD Z13, Z13, Z14           // d² + 4gg
	VSQRTPD     Z14, Z14                // r
	VPANDQ      Z25, Z13, Z15           // |d|
	VADDPD      Z14, Z15, Z15           // e = |d| + r
	VMULPD      Z15, Z14, Z16           // re
	VADDPD      Z16, Z16, Z16           // 2re
	VSQRTPD     Z16, Z16
	VDIVPD      Z16, Z23, Z16           // w = 1/sqrt(2re)
	VMULPD      Z16, Z15, Z17           // c = e*w
	VADDPD      Z8, Z8, Z18             // 2g
	VMULPD      Z16, Z18, Z18           // s = 2g*w
	VADDPD      Z11, Z11, Z19           // 2gg
	VDIVPD      Z15, Z19, Z19           // h = 2gg/e
	VPXORQ      Z0, Z0, Z0
	VCMPPD      $0x1e, Z0, Z13, K2      // d > 0
	VPXORQ      Z24, Z18, K2, Z18       // s = -s
	VPXORQ      Z24, Z19, K2, Z19       // h = -h
	VMOVUPD     Z17, QC(SP)
	VMOVUPD     Z18, QS(SP)
	VADDPD      Z19, Z9, Z13            // a1 = a + h
	VSUBPD      Z19, Z10, Z14           // b1 = b - h
	VMULPD      Z28, Z9, Z15
	VCMPPD      $0x1d, Z15, Z13, K7, K3 // a1 >= 0.01a
	VMULPD      Z28, Z10, Z15
	VCMPPD      $0x1d, Z15, Z14, K7, K4 // b1 >= 0.01b
	KMOVW       K7, AX
	MOVQ        AX, QMROT(SP)
	KMOVW       K3, CX
	XORQ        AX, CX
	MOVQ        CX, QMRA(SP)            // rotated, a1 to recompute
	KMOVW       K4, CX
	XORQ        AX, CX
	MOVQ        CX, QMRB(SP)
	POPCNTL     AX, AX
	ADDQ        AX, QROT(SP)
	VSCATTERQPD Z13, K3, (R13)(Z6*8)
	VSCATTERQPD Z14, K4, (R13)(Z7*8)
	VDIVPD      Z12, Z11, Z15           // gg/ab
	VMAXPD      Z15, Z20, K7, Z20
	VPANDQ      Z25, Z18, Z15           // |s|
	VMAXPD      Z15, Z21, K7, Z21
	// cs: (c, s) where rotated, (1, 0) where in range, else (0, 0).
	VMOVAPD.Z   Z23, K6, Z15
	VMOVAPD     Z17, K7, Z15
	VMOVAPD.Z   Z18, K7, Z16
	VMOVDQU64   jperm<>+0(SB), Z0
	VPERMI2PD   Z16, Z15, Z0            // c0 s0 c1 s1 c2 s2 c3 s3
	VMOVDQU64   jperm<>+64(SB), Z1
	VPERMI2PD   Z16, Z15, Z1            // c4 s4 ... c7 s7
	MOVQ        BX, CX
	SHLQ        $1, CX
	MOVQ        $1, AX
	SHLQ        CX, AX
	DECQ        AX
	KMOVW       AX, K2
	SHRQ        $8, AX
	KMOVW       AX, K3
	VMOVUPD     Z0, K2, (R14)
	VMOVUPD     Z1, K3, 64(R14)

	// Phase 3: rotate the rows of the rotated pairs, forming the dot
	// products fused into them; the fused dot products of the pairs not
	// rotated; recompute the squared norms whose update cancelled.
	XORQ DX, DX

q3pair:
	MOVQ  QMROT(SP), AX
	BTQ   DX, AX
	JCC   q3norot
	MOVQ  QPP(SP)(DX*8), SI
	MOVQ  QPQ(SP)(DX*8), DI
	VBROADCASTSD QC(SP)(DX*8), Z30
	VBROADCASTSD QS(SP)(DX*8), Z31
	MOVQ  QHASP(SP), AX
	MOVQ  QHASQ(SP), CX
	BTQ   DX, AX
	JCC   q3rotq
	BTQ   DX, CX
	JCS   q3both
	MOVQ  QW1(SP)(DX*8), BX
	MOVL  GTP(R11)(DX*4), AX
	JMP   q3one

q3rotq:
	BTQ    DX, CX
	JCC    q3rot0
	// Only row q has a fused dot product: rotate (q, p) by (c, -s),
	// which gives (q', p').
	XCHGQ  SI, DI
	VPXORQ Z24, Z31, Z31
	MOVQ   QW2(SP)(DX*8), BX
	MOVL   GTQ(R11)(DX*4), AX

q3one:
	// Rotate the rows at SI and DI, and store (SI')·(BX) into cs[AX].
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	MOVQ   R9, CX
	CMPQ   CX, $16
	JB     q3one8

q3one16:
	ROT16
	VFMADD231PD (BX), Z4, Z8
	VFMADD231PD 64(BX), Z5, Z9
	STORE16
	ADDQ        $128, BX
	SUBQ        $16, CX
	CMPQ        CX, $16
	JAE         q3one16

q3one8:
	TESTQ       CX, CX
	JZ          q3onesum
	ROT8
	VFMADD231PD (BX), Z4, Z8
	STORE8

q3onesum:
	VADDPD Z9, Z8, Z0
	HSUM
	MOVQ   QCS(SP), CX
	VMOVSD X0, (CX)(AX*8)
	JMP    q3rec

q3both:
	// Rotate, storing p'·(W1) into cs[GTP] and q'·(W2) into cs[GTQ].
	MOVQ   QW1(SP)(DX*8), AX
	MOVQ   QW2(SP)(DX*8), BX
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	VPXORQ Z10, Z10, Z10
	VPXORQ Z11, Z11, Z11
	MOVQ   R9, CX
	CMPQ   CX, $16
	JB     q3both8

q3both16:
	ROT16
	VFMADD231PD (AX), Z4, Z8
	VFMADD231PD 64(AX), Z5, Z9
	VFMADD231PD (BX), Z6, Z10
	VFMADD231PD 64(BX), Z7, Z11
	STORE16
	ADDQ        $128, AX
	ADDQ        $128, BX
	SUBQ        $16, CX
	CMPQ        CX, $16
	JAE         q3both16

q3both8:
	TESTQ       CX, CX
	JZ          q3bothsum
	ROT8
	VFMADD231PD (AX), Z4, Z8
	VFMADD231PD (BX), Z6, Z10
	STORE8

q3bothsum:
	MOVQ   QCS(SP), CX
	VADDPD Z9, Z8, Z0
	HSUM
	MOVL   GTP(R11)(DX*4), AX
	VMOVSD X0, (CX)(AX*8)
	VADDPD Z11, Z10, Z0
	HSUM
	MOVL   GTQ(R11)(DX*4), AX
	VMOVSD X0, (CX)(AX*8)
	JMP    q3rec

q3rot0:
	// No fused dot product: the rotation alone.
	MOVQ R9, CX
	CMPQ CX, $16
	JB   q3rot8

q3rot16:
	ROT16
	STORE16
	SUBQ        $16, CX
	CMPQ        CX, $16
	JAE         q3rot16

q3rot8:
	TESTQ       CX, CX
	JZ          q3rec
	ROT8
	STORE8
	JMP         q3rec

q3norot:
	// Not rotated: the fused dot products from the rows as they are.
	MOVQ  QHASP(SP), AX
	BTQ   DX, AX
	JCC   q3norotq
	MOVQ  QPP(SP)(DX*8), SI
	MOVQ  QW1(SP)(DX*8), BX
	ZERO4
	MOVQ  R9, CX
	CMPQ  CX, $32
	JB    q3np16

q3np32:
	DOT32(SI, BX)
	SUBQ        $32, CX
	CMPQ        CX, $32
	JAE         q3np32

q3np16:
	CMPQ        CX, $16
	JB          q3np8
	DOT16(SI, BX)
	SUBQ        $16, CX

q3np8:
	TESTQ       CX, CX
	JZ          q3npsum
	DOT8(SI, BX)

q3npsum:
	DOTSUM
	MOVQ   QCS(SP), CX
	MOVL   GTP(R11)(DX*4), AX
	VMOVSD X0, (CX)(AX*8)

q3norotq:
	MOVQ  QHASQ(SP), AX
	BTQ   DX, AX
	JCC   q3next
	MOVQ  QPQ(SP)(DX*8), SI
	MOVQ  QW2(SP)(DX*8), BX
	ZERO4
	MOVQ  R9, CX
	CMPQ  CX, $32
	JB    q3nq16

q3nq32:
	DOT32(SI, BX)
	SUBQ        $32, CX
	CMPQ        CX, $32
	JAE         q3nq32

q3nq16:
	CMPQ        CX, $16
	JB          q3nq8
	DOT16(SI, BX)
	SUBQ        $16, CX

q3nq8:
	TESTQ       CX, CX
	JZ          q3nqsum
	DOT8(SI, BX)

q3nqsum:
	DOTSUM
	MOVQ   QCS(SP), CX
	MOVL   GTQ(R11)(DX*4), AX
	VMOVSD X0, (CX)(AX*8)
	JMP    q3next

q3rec:
	MOVQ   QMRA(SP), AX
	BTQ    DX, AX
	JCC    q3recb
	MOVQ   QPP(SP)(DX*8), SI
	VPXORQ Z0, Z0, Z0
	MOVQ   R9, CX

q3sa8:
	VMOVUPD     (SI), Z4
	VFMADD231PD Z4, Z4, Z0
	ADDQ        $64, SI
	SUBQ        $8, CX
	JNZ         q3sa8
	HSUM
	MOVL        GP(R11)(DX*4), CX
	VMOVSD      X0, (R13)(CX*8)

q3recb:
	MOVQ   QMRB(SP), AX
	BTQ    DX, AX
	JCC    q3next
	MOVQ   QPQ(SP)(DX*8), SI
	VPXORQ Z0, Z0, Z0
	MOVQ   R9, CX

q3sb8:
	VMOVUPD     (SI), Z4
	VFMADD231PD Z4, Z4, Z0
	ADDQ        $64, SI
	SUBQ        $8, CX
	JNZ         q3sb8
	HSUM
	MOVL        GQ(R11)(DX*4), CX
	VMOVSD      X0, (R13)(CX*8)

q3next:
	INCQ DX
	MOVQ QCNT(SP), BX
	CMPQ DX, BX
	JB   q3pair

	SHLQ $4, BX
	ADDQ BX, R14
	ADDQ $GSIZE, R11
	JMP  qgroup

qfinish:
	MOVQ          QROT(SP), AX
	MOVQ          AX, rotated+120(FP)
	MOVQ          QLEFT(SP), AX
	MOVQ          AX, left+128(FP)
	VMOVAPD       Z20, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VMAXPD        Y1, Y0, Y0
	VEXTRACTF128  $1, Y0, X1
	VMAXPD        X1, X0, X0
	VPERMILPD     $1, X0, X1
	VMAXSD        X1, X0, X0
	VMOVSD        X0, maxCos2+136(FP)
	VMOVAPD       Z21, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VMAXPD        Y1, Y0, Y0
	VEXTRACTF128  $1, Y0, X1
	VMAXPD        X1, X0, X0
	VPERMILPD     $1, X0, X1
	VMAXSD        X1, X0, X0
	VMOVSD        X0, maxSin+144(FP)
	VZEROUPPER
	RET
