package main

import (
	"github.com/mmcloughlin/avo/gotypes"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// A level is a vector width and the instructions that work at it. The
// kernels use the vector registers 0-15 of either width the same way:
//
//	V0-V3    accumulators (or the vectors being updated)
//	V4-V11   temporaries
//	V12-V13  scalars of the kernel (c and s, m) and horizontal scratch
//	V14      the tail mask (AVX2; AVX-512 keeps it in K1)
//	V15      alpha, scale or the absolute-value mask
type level struct {
	name   string // suffix of the routine names
	lanes  int    // float64 lanes of a vector
	avx512 bool
}

var (
	avx2   = &level{name: "AVX2", lanes: 4}
	avx512 = &level{name: "AVX512", lanes: 8, avx512: true}
)

var ymm = [16]VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15}
var zmm = [16]VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15}

// V is vector register i at the level's width.
func (l *level) V(i int) VecPhysical {
	if l.avx512 {
		return zmm[i]
	}
	return ymm[i]
}

// bytes is the size of a vector.
func (l *level) bytes() int { return 8 * l.lanes }

// text starts the routine name+level with Go signature sig.
func (l *level) text(name, sig string) {
	TEXT(name+l.name, NOSPLIT, sig)
}

// ret returns from a routine that used vector registers.
func ret() {
	VZEROUPPER()
	RET()
}

// addr is the frame address of a parameter or result.
func addr(c gotypes.Component) Mem {
	b, err := c.Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}

// zero clears v.
func (l *level) zero(v VecPhysical) {
	if l.avx512 {
		VPXORQ(v, v, v)
	} else {
		VXORPD(v, v, v)
	}
}

// and sets dst to src AND m.
func (l *level) and(src Op, m, dst VecPhysical) {
	if l.avx512 {
		VPANDQ(src, m, dst)
	} else {
		VANDPD(src, m, dst)
	}
}

// absMask puts 0x7fff...f in every lane of dst (clobbers AX).
func (l *level) absMask(dst VecPhysical) {
	MOVQ(U64(0x7fffffffffffffff), RAX)
	if l.avx512 {
		VPBROADCASTQ(RAX, dst)
	} else {
		VMOVQ(RAX, dst.AsX())
		VPBROADCASTQ(dst.AsX(), dst)
	}
}

// max sets acc to the lane-wise signed-integer maximum of v and acc,
// which orders non-negative floats with NaN above +Inf (AVX2 clobbers
// V8).
func (l *level) max(v, acc Register) {
	if l.avx512 {
		VPMAXSQ(v, acc, acc)
		return
	}
	t := ymm[8]
	if v.Size() == 16 {
		t = ymm[8].AsX().(VecPhysical)
	}
	VPCMPGTQ(acc, v, t)
	VBLENDVPD(t, v, acc, acc)
}

// hsum adds the lanes of v into its low lane (clobbers s).
func (l *level) hsum(v, s VecPhysical) {
	if l.avx512 {
		VEXTRACTF64X4(U8(1), v, s.AsY())
		VADDPD(s.AsY(), v.AsY(), v.AsY())
	}
	VEXTRACTF128(U8(1), v.AsY(), s.AsX())
	VADDPD(s.AsX(), v.AsX(), v.AsX())
	VPERMILPD(U8(1), v.AsX(), s.AsX())
	VADDSD(s.AsX(), v.AsX(), v.AsX())
}

// hmax sets the low lane of v to the integer maximum of its lanes
// (clobbers s).
func (l *level) hmax(v, s VecPhysical) {
	if l.avx512 {
		VSHUFI64X2(U8(0x4e), v, v, s)
		VPMAXSQ(s, v, v)
		VSHUFI64X2(U8(0xb1), v, v, s)
		VPMAXSQ(s, v, v)
		VPSHUFD(U8(0x4e), v, s)
		VPMAXSQ(s, v, v)
		return
	}
	VEXTRACTF128(U8(1), v, s.AsX())
	l.max(s.AsX(), v.AsX())
	VPERMILPD(U8(1), v.AsX(), s.AsX())
	l.max(s.AsX(), v.AsX())
}

// setTail sets the tail mask to the low CX lanes, 1 <= CX <= lanes (clobbers
// AX).
func (l *level) setTail() {
	if l.avx512 {
		MOVQ(U32(1), RAX)
		SHLQ(CL, RAX)
		DECQ(RAX)
		KMOVW(EAX, K1)
		return
	}
	// tailmasks+32-8*CX holds CX quadwords of ones, then zeros.
	LEAQ(tailmask.Offset(32), RAX)
	SHLQ(U8(3), RCX)
	SUBQ(RCX, RAX)
	SHRQ(U8(3), RCX)
	VMOVDQU(Mem{Base: RAX}, ymm[14])
}

// tailmask is the table that setTail reads for AVX2.
var tailmask Mem

// tailMasks emits that table: four quadwords of ones, four of zeros.
func tailMasks() {
	tailmask = GLOBL("tailmasks", RODATA|NOPTR)
	for i := 0; i < 8; i++ {
		v := U64(0)
		if i < 4 {
			v = U64(^uint64(0))
		}
		DATA(8*i, v)
	}
}

// eqMask sets the low bits of AX to the lanes of v equal to m: all lanes,
// or only those of the tail mask.
func (l *level) eqMask(v, m VecPhysical, tail bool) {
	const eqOQ = 0
	if l.avx512 {
		if tail {
			VCMPPD(U8(eqOQ), m, v, K1, K2)
		} else {
			VCMPPD(U8(eqOQ), m, v, K2)
		}
		KMOVW(K2, EAX)
		return
	}
	t := ymm[5]
	VCMPPD(U8(eqOQ), m, v, t)
	if tail {
		VANDPD(ymm[14], t, t)
	}
	VMOVMSKPD(t, EAX)
}

// An access reads and writes vector j of an array, either whole vectors
// or (tail) under the tail mask, which never touches masked-off memory.
type access struct {
	l    *level
	tail bool
	at   func(p GPPhysical, j int) Mem
}

// direct addresses vector j at p + j*bytes.
func (l *level) direct(p GPPhysical, j int) Mem {
	return Mem{Base: p, Disp: j * l.bytes()}
}

// indexed addresses vector j at p + BX + j*bytes.
func (l *level) indexed(p GPPhysical, j int) Mem {
	return Mem{Base: p, Index: RBX, Scale: 1, Disp: j * l.bytes()}
}

// load sets dst to vector j at p.
func (a access) load(p GPPhysical, j int, dst VecPhysical) {
	if !a.tail {
		VMOVUPD(a.at(p, j), dst)
	} else if a.l.avx512 {
		VMOVUPD_Z(a.at(p, j), K1, dst)
	} else {
		VMASKMOVPD(a.at(p, j), ymm[14], dst)
	}
}

// src is vector j at p as an operand: the memory itself, or in the tail
// t loaded under the mask.
func (a access) src(p GPPhysical, j int, t VecPhysical) Op {
	if !a.tail {
		return a.at(p, j)
	}
	a.load(p, j, t)
	return t
}

// store writes v to vector j at p.
func (a access) store(v VecPhysical, p GPPhysical, j int) {
	if !a.tail {
		VMOVUPD(v, a.at(p, j))
	} else if a.l.avx512 {
		VMOVUPD(v, K1, a.at(p, j))
	} else {
		VMASKMOVPD(v, ymm[14], a.at(p, j))
	}
}

// span emits the loops over the CX elements left: blocks of unroll
// vectors, then single vectors, then the tail of fewer than one vector,
// which ends at label done. block(k, a) emits the code for k vectors
// (unroll, or 1 in the single and the tail step) read through a; step
// advances the arrays by a number of bytes. With setMask the tail step
// sets the tail mask from CX first. Labels begin with p.
func (l *level) span(p string, unroll int, at func(GPPhysical, int) Mem, setMask bool, done string, block func(k int, a access), step func(bytes int)) {
	n := unroll * l.lanes
	CMPQ(RCX, U32(n))
	JB(LabelRef(p + "one"))
	Label(p + "loop")
	block(unroll, access{l: l, at: at})
	step(n * 8)
	SUBQ(U32(n), RCX)
	CMPQ(RCX, U32(n))
	JAE(LabelRef(p + "loop"))

	Label(p + "one")
	CMPQ(RCX, U32(l.lanes))
	JB(LabelRef(p + "tail"))
	block(1, access{l: l, at: at})
	step(l.bytes())
	SUBQ(U32(l.lanes), RCX)
	if unroll > 2 {
		JMP(LabelRef(p + "one"))
	}

	Label(p + "tail")
	TESTQ(RCX, RCX)
	JZ(LabelRef(done))
	if setMask {
		l.setTail()
	}
	block(1, access{l: l, tail: true, at: at})
	Label(done)
}

// advance returns a step that adds the byte count to the pointers.
func advance(ps ...GPPhysical) func(int) {
	return func(n int) {
		for _, p := range ps {
			ADDQ(U32(n), p)
		}
	}
}
