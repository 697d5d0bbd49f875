//go:build !purego

#include "textflag.h"

// Peak floating-point throughput probes for the benchmarks: n iterations
// of independent fused multiply-adds on zeroed registers, no memory
// traffic. 24 chains of 512-bit FMAs (384 flops an iteration) and 12
// chains of 256-bit FMAs (96 flops) are more than enough to cover the FMA
// latency on two pipes.

#define F8(a, b, c, d, e, f, g, h) VFMADD231PD Z30, Z31, a; VFMADD231PD Z30, Z31, b; VFMADD231PD Z30, Z31, c; VFMADD231PD Z30, Z31, d; VFMADD231PD Z30, Z31, e; VFMADD231PD Z30, Z31, f; VFMADD231PD Z30, Z31, g; VFMADD231PD Z30, Z31, h

// func fmaPeakAVX512(n int)
TEXT ·fmaPeakAVX512(SB), NOSPLIT, $0-8
	MOVQ    n+0(FP), CX
	VPXORQ  Z0, Z0, Z0
	VMOVAPD Z0, Z1; VMOVAPD Z0, Z2; VMOVAPD Z0, Z3; VMOVAPD Z0, Z4; VMOVAPD Z0, Z5; VMOVAPD Z0, Z6; VMOVAPD Z0, Z7
	VMOVAPD Z0, Z8; VMOVAPD Z0, Z9; VMOVAPD Z0, Z10; VMOVAPD Z0, Z11; VMOVAPD Z0, Z12; VMOVAPD Z0, Z13; VMOVAPD Z0, Z14
	VMOVAPD Z0, Z15; VMOVAPD Z0, Z16; VMOVAPD Z0, Z17; VMOVAPD Z0, Z18; VMOVAPD Z0, Z19; VMOVAPD Z0, Z20; VMOVAPD Z0, Z21
	VMOVAPD Z0, Z22; VMOVAPD Z0, Z23; VMOVAPD Z0, Z30; VMOVAPD Z0, Z31
	TESTQ   CX, CX
	JZ      done

loop:
	F8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	F8(Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15)
	F8(Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23)
	DECQ CX
	JNZ  loop

done:
	VZEROUPPER
	RET

#define F4Y(a, b, c, d) VFMADD231PD Y14, Y15, a; VFMADD231PD Y14, Y15, b; VFMADD231PD Y14, Y15, c; VFMADD231PD Y14, Y15, d

// func fmaPeakAVX2(n int)
TEXT ·fmaPeakAVX2(SB), NOSPLIT, $0-8
	MOVQ    n+0(FP), CX
	VXORPD  Y0, Y0, Y0
	VMOVAPD Y0, Y1; VMOVAPD Y0, Y2; VMOVAPD Y0, Y3; VMOVAPD Y0, Y4; VMOVAPD Y0, Y5; VMOVAPD Y0, Y6; VMOVAPD Y0, Y7
	VMOVAPD Y0, Y8; VMOVAPD Y0, Y9; VMOVAPD Y0, Y10; VMOVAPD Y0, Y11; VMOVAPD Y0, Y14; VMOVAPD Y0, Y15
	TESTQ   CX, CX
	JZ      done

loop:
	F4Y(Y0, Y1, Y2, Y3)
	F4Y(Y4, Y5, Y6, Y7)
	F4Y(Y8, Y9, Y10, Y11)
	DECQ CX
	JNZ  loop

done:
	VZEROUPPER
	RET
