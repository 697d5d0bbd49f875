//go:build !purego

#include "textflag.h"

// GEMM micro-kernel and packing for AVX2+FMA. The micro-tile is 4 x 12:
// 12 accumulators Y0-Y11 (row i of C in Y(3i), Y(3i+1), Y(3i+2)), the
// current row of the B panel in Y12-Y14, and each A value broadcast into
// Y15. Per step of k: 3 loads, 4 broadcasts, 12 FMAs (measured: 66-68
// GFLOP/s in L1 on a Zen 5 core, the 256-bit FMA peak).

#define ROW2(a, r0, r1, r2) VBROADCASTSD a, Y15; VFMADD231PD Y12, Y15, r0; VFMADD231PD Y13, Y15, r1; VFMADD231PD Y14, Y15, r2

#define KSTEP2(s) \
	VMOVUPD (s*96)(DI), Y12; VMOVUPD (s*96+32)(DI), Y13; VMOVUPD (s*96+64)(DI), Y14; \
	ROW2((s*32)(SI), Y0, Y1, Y2); ROW2((s*32+8)(SI), Y3, Y4, Y5); \
	ROW2((s*32+16)(SI), Y6, Y7, Y8); ROW2((s*32+24)(SI), Y9, Y10, Y11)

#define CADD2(r0, r1, r2) VADDPD (DX), r0, r0; VADDPD 32(DX), r1, r1; VADDPD 64(DX), r2, r2; CSTORE2(r0, r1, r2)
#define CSTORE2(r0, r1, r2) VMOVUPD r0, (DX); VMOVUPD r1, 32(DX); VMOVUPD r2, 64(DX); ADDQ R8, DX

#define CPREFETCH2 PREFETCHT0 (DX); PREFETCHT0 64(DX); PREFETCHT0 95(DX); ADDQ R8, DX

// func gemmKernelAVX2(k int, a, b, c []float64, ldc int, add int)
TEXT ·gemmKernelAVX2(SB), NOSPLIT, $0-96
	MOVQ k+0(FP), CX
	MOVQ a_base+8(FP), SI
	MOVQ b_base+32(FP), DI
	MOVQ c_base+56(FP), DX
	MOVQ ldc+80(FP), R8
	SHLQ $3, R8
	MOVQ DX, R9
	CPREFETCH2; CPREFETCH2; CPREFETCH2; CPREFETCH2
	MOVQ R9, DX
	VXORPD  Y0, Y0, Y0
	VMOVAPD Y0, Y1; VMOVAPD Y0, Y2; VMOVAPD Y0, Y3; VMOVAPD Y0, Y4; VMOVAPD Y0, Y5
	VMOVAPD Y0, Y6; VMOVAPD Y0, Y7; VMOVAPD Y0, Y8; VMOVAPD Y0, Y9; VMOVAPD Y0, Y10
	VMOVAPD Y0, Y11
	MOVQ CX, BX
	SHRQ $2, BX
	JZ   rest

loop4:
	PREFETCHT0 (4*32+256)(SI)
	KSTEP2(0)
	KSTEP2(1)
	KSTEP2(2)
	KSTEP2(3)
	ADDQ $128, SI
	ADDQ $384, DI
	DECQ BX
	JNZ  loop4

rest:
	ANDQ $3, CX
	JZ   write

loop1:
	KSTEP2(0)
	ADDQ $32, SI
	ADDQ $96, DI
	DECQ CX
	JNZ  loop1

write:
	MOVQ  add+88(FP), AX
	TESTQ AX, AX
	JZ    store
	CADD2(Y0, Y1, Y2); CADD2(Y3, Y4, Y5); CADD2(Y6, Y7, Y8); CADD2(Y9, Y10, Y11)
	VZEROUPPER
	RET

store:
	CSTORE2(Y0, Y1, Y2); CSTORE2(Y3, Y4, Y5); CSTORE2(Y6, Y7, Y8); CSTORE2(Y9, Y10, Y11)
	VZEROUPPER
	RET

// func packCopyAVX2(kc, w int, alpha float64, src []float64, ld int, dst []float64)
TEXT ·packCopyAVX2(SB), NOSPLIT, $0-80
	MOVQ         kc+0(FP), CX
	MOVQ         w+8(FP), R10
	SHLQ         $3, R10
	VBROADCASTSD alpha+16(FP), Y15
	MOVQ         src_base+24(FP), SI
	MOVQ         ld+48(FP), R8
	SHLQ         $3, R8
	MOVQ         dst_base+56(FP), DI
	TESTQ        CX, CX
	JZ           done

step:
	XORQ BX, BX

vec:
	VMULPD  (SI)(BX*1), Y15, Y0
	VMOVUPD Y0, (DI)(BX*1)
	ADDQ    $32, BX
	CMPQ    BX, R10
	JB      vec
	ADDQ    R8, SI
	ADDQ    R10, DI
	DECQ    CX
	JNZ     step

done:
	VZEROUPPER
	RET

// func packTransAVX2(kc int, alpha float64, src []float64, ld int, dst []float64, ws int)
//
// Four rows at a time: load a 4 x 4 block (rows in Y0-Y3), scale it,
// transpose it (pairs of elements, then 128-bit halves) and store its
// columns, one per step of p.
TEXT ·packTransAVX2(SB), NOSPLIT, $0-80
	MOVQ         kc+0(FP), CX
	VBROADCASTSD alpha+8(FP), Y15
	MOVQ         src_base+16(FP), SI
	MOVQ         ld+40(FP), R8
	SHLQ         $3, R8
	MOVQ         dst_base+48(FP), DI
	MOVQ         ws+72(FP), R12
	SHLQ         $3, R12
	LEAQ         (R8)(R8*2), R11
	LEAQ         (R12)(R12*2), R13
	SHRQ         $2, CX
	JZ           done

block:
	VMULPD     (SI), Y15, Y0
	VMULPD     (SI)(R8*1), Y15, Y1
	VMULPD     (SI)(R8*2), Y15, Y2
	VMULPD     (SI)(R11*1), Y15, Y3
	VUNPCKLPD  Y1, Y0, Y4
	VUNPCKHPD  Y1, Y0, Y5
	VUNPCKLPD  Y3, Y2, Y6
	VUNPCKHPD  Y3, Y2, Y7
	VPERM2F128 $0x20, Y6, Y4, Y0
	VPERM2F128 $0x20, Y7, Y5, Y1
	VPERM2F128 $0x31, Y6, Y4, Y2
	VPERM2F128 $0x31, Y7, Y5, Y3
	VMOVUPD    Y0, (DI)
	VMOVUPD    Y1, (DI)(R12*1)
	VMOVUPD    Y2, (DI)(R12*2)
	VMOVUPD    Y3, (DI)(R13*1)
	LEAQ       (DI)(R12*4), DI
	ADDQ       $32, SI
	DECQ       CX
	JNZ        block

done:
	VZEROUPPER
	RET
