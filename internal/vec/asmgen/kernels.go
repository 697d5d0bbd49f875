package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// loadX sets SI and CX to x's base and length, and DI to y's base when
// the routine has a y.
func loadX(y bool) {
	Load(Param("x").Base(), RSI)
	Load(Param("x").Len(), RCX)
	if y {
		Load(Param("y").Base(), RDI)
	}
}

// A reduction folds a term of every element of x (and y) into the four
// accumulators V0-V3: a block of four vectors one into each, a single
// vector into V0, the tail into V1. It returns the lanes of
// (V0+V1)+(V2+V3) combined by horiz.
type reduction struct {
	name, sig string
	setup     func(l *level) // loads the pointers and constants
	// term sets t to the term of vector j (its first factor for dot);
	// fold folds t into acc; combine folds the accumulator src into acc.
	term    func(l *level, a access, j int, t VecPhysical)
	fold    func(l *level, a access, j int, t, acc VecPhysical)
	combine func(l *level, src, acc VecPhysical)
	horiz   func(l *level, v, scratch VecPhysical)
	step    func(int)
}

func (r *reduction) emit(l *level) {
	l.text(r.name, r.sig)
	r.setup(l)
	for i := 0; i < 4; i++ {
		l.zero(l.V(i))
	}
	l.span("", 4, l.direct, true, "done", func(k int, a access) {
		for j := 0; j < k; j++ {
			r.term(l, a, j, l.V(4+j))
		}
		for j := 0; j < k; j++ {
			acc := l.V(j)
			if a.tail {
				acc = l.V(1)
			}
			r.fold(l, a, j, l.V(4+j), acc)
		}
	}, r.step)
	r.combine(l, l.V(1), l.V(0))
	r.combine(l, l.V(3), l.V(2))
	r.combine(l, l.V(2), l.V(0))
	r.horiz(l, l.V(0), l.V(1))
	VMOVSD(l.V(0).AsX(), addr(ReturnIndex(0)))
	ret()
}

func add(l *level, src, acc VecPhysical)    { VADDPD(src, acc, acc) }
func maxInt(l *level, src, acc VecPhysical) { l.max(src, acc) }

// abs sets t to |vector j of x|.
func abs(l *level, a access, j int, t VecPhysical) { l.and(a.src(RSI, j, t), l.V(15), t) }

func dot(l *level) {
	(&reduction{
		name:  "dot",
		sig:   "func(x, y []float64) float64",
		setup: func(l *level) { loadX(true) },
		term:  func(l *level, a access, j int, t VecPhysical) { a.load(RSI, j, t) },
		fold: func(l *level, a access, j int, t, acc VecPhysical) {
			VFMADD231PD(a.src(RDI, j, l.V(8)), t, acc)
		},
		combine: add,
		horiz:   (*level).hsum,
		step:    advance(RSI, RDI),
	}).emit(l)
}

func asum(l *level) {
	(&reduction{
		name: "asum",
		sig:  "func(x []float64) float64",
		setup: func(l *level) {
			loadX(false)
			l.absMask(l.V(15))
		},
		term:    abs,
		fold:    func(l *level, a access, j int, t, acc VecPhysical) { VADDPD(t, acc, acc) },
		combine: add,
		horiz:   (*level).hsum,
		step:    advance(RSI),
	}).emit(l)
}

func sumSq(l *level) {
	(&reduction{
		name: "sumSq",
		sig:  "func(x []float64, scale float64) float64",
		setup: func(l *level) {
			loadX(false)
			VBROADCASTSD(addr(Param("scale")), l.V(15))
		},
		term: func(l *level, a access, j int, t VecPhysical) { VMULPD(a.src(RSI, j, t), l.V(15), t) },
		fold: func(l *level, a access, j int, t, acc VecPhysical) {
			VFMADD231PD(t, t, acc)
		},
		combine: add,
		horiz:   (*level).hsum,
		step:    advance(RSI),
	}).emit(l)
}

func maxAbs(l *level) {
	(&reduction{
		name: "maxAbs",
		sig:  "func(x []float64) float64",
		setup: func(l *level) {
			loadX(false)
			l.absMask(l.V(15))
		},
		term:    abs,
		fold:    func(l *level, a access, j int, t, acc VecPhysical) { l.max(t, acc) },
		combine: maxInt,
		horiz:   (*level).hmax,
		step:    advance(RSI),
	}).emit(l)
}

// axpy updates four vectors of y at a time in V0-V3.
func axpy(l *level) {
	l.text("axpy", "func(alpha float64, x, y []float64)")
	VBROADCASTSD(addr(Param("alpha")), l.V(15))
	loadX(true)
	l.span("", 4, l.direct, true, "done", func(k int, a access) {
		for j := 0; j < k; j++ {
			a.load(RDI, j, l.V(j))
		}
		for j := 0; j < k; j++ {
			VFMADD231PD(a.src(RSI, j, l.V(4+j)), l.V(15), l.V(j))
		}
		for j := 0; j < k; j++ {
			a.store(l.V(j), RDI, j)
		}
	}, advance(RSI, RDI))
	ret()
}

func scal(l *level) {
	l.text("scal", "func(alpha float64, x []float64)")
	VBROADCASTSD(addr(Param("alpha")), l.V(15))
	loadX(false)
	l.span("", 4, l.direct, true, "done", func(k int, a access) {
		for j := 0; j < k; j++ {
			VMULPD(a.src(RSI, j, l.V(j)), l.V(15), l.V(j))
		}
		for j := 0; j < k; j++ {
			a.store(l.V(j), RSI, j)
		}
	}, advance(RSI))
	ret()
}

// rot rotates two vectors at a time: x in V0-V1, y in V2-V3, the new x
// in V4-V5 and the new y in V6-V7, with c in V12 and s in V13.
func rot(l *level) {
	l.text("rot", "func(x, y []float64, c, s float64)")
	loadX(true)
	c, s := l.V(12), l.V(13)
	VBROADCASTSD(addr(Param("c")), c)
	VBROADCASTSD(addr(Param("s")), s)
	l.span("", 2, l.direct, true, "done", func(k int, a access) {
		for j := 0; j < k; j++ {
			a.load(RSI, j, l.V(j))
		}
		for j := 0; j < k; j++ {
			a.load(RDI, j, l.V(2+j))
		}
		for j := 0; j < k; j++ {
			VMULPD(l.V(2+j), s, l.V(4+j))
		}
		for j := 0; j < k; j++ {
			VMULPD(l.V(j), s, l.V(6+j))
		}
		for j := 0; j < k; j++ {
			VFMADD231PD(l.V(j), c, l.V(4+j))
		}
		for j := 0; j < k; j++ {
			VFMSUB231PD(l.V(2+j), c, l.V(6+j))
		}
		for j := 0; j < k; j++ {
			a.store(l.V(4+j), RSI, j)
		}
		for j := 0; j < k; j++ {
			a.store(l.V(6+j), RDI, j)
		}
	}, advance(RSI, RDI))
	ret()
}

// indexAbs compares a vector at a time with m in V13, counting in BX the
// elements before SI.
func indexAbs(l *level) {
	l.text("indexAbs", "func(x []float64, m float64) int")
	loadX(false)
	m, abs := l.V(13), l.V(15)
	VBROADCASTSD(addr(Param("m")), m)
	l.absMask(abs)
	XORQ(RBX, RBX)

	Label("one")
	CMPQ(RCX, U32(l.lanes))
	JB(LabelRef("tail"))
	l.and(Mem{Base: RSI}, abs, l.V(4))
	l.eqMask(l.V(4), m, false)
	TESTL(EAX, EAX)
	JNZ(LabelRef("found"))
	ADDQ(U32(l.bytes()), RSI)
	ADDQ(U32(l.lanes), RBX)
	SUBQ(U32(l.lanes), RCX)
	JMP(LabelRef("one"))

	Label("tail")
	TESTQ(RCX, RCX)
	JZ(LabelRef("none"))
	l.setTail()
	access{l: l, tail: true, at: l.direct}.load(RSI, 0, l.V(4))
	l.and(l.V(4), abs, l.V(4))
	l.eqMask(l.V(4), m, true)
	TESTL(EAX, EAX)
	JNZ(LabelRef("found"))

	Label("none")
	MOVQ(I32(-1), addr(ReturnIndex(0)))
	ret()

	Label("found")
	BSFL(EAX, EAX)
	ADDQ(RBX, RAX)
	Store(RAX, ReturnIndex(0))
	ret()
}

// gemvSetup loads the arguments of gemvN and gemvT: m in R12, n in R13,
// a in SI, lda*8 in R8, x in DI, y in DX, and sets the tail mask to the
// last n%lanes columns.
func gemvSetup(l *level) {
	Load(Param("m"), R12)
	Load(Param("n"), R13)
	Load(Param("a").Base(), RSI)
	Load(Param("lda"), R8)
	SHLQ(U8(3), R8)
	Load(Param("x").Base(), RDI)
	Load(Param("y").Base(), RDX)
	MOVQ(R13, RCX)
	ANDQ(U32(l.lanes-1), RCX)
	l.setTail()
}

// gemvRows emits the loop over the rows of a: four at a time from SI,
// R9, R10 and R11, then one at a time from SI. body emits the code for
// the rows that begin at the given registers; after it next4 (next1)
// advances past four rows (one row).
func gemvRows(body func(p string, rows []GPPhysical), next4, next1 func()) {
	Label("rows4")
	CMPQ(R12, U32(4))
	JB(LabelRef("rows1"))
	LEAQ(Mem{Base: RSI, Index: R8, Scale: 1}, R9)
	LEAQ(Mem{Base: RSI, Index: R8, Scale: 2}, R10)
	LEAQ(Mem{Base: R10, Index: R8, Scale: 1}, R11)
	body("c", []GPPhysical{RSI, R9, R10, R11})
	LEAQ(Mem{Base: RSI, Index: R8, Scale: 4}, RSI)
	next4()
	SUBQ(U32(4), R12)
	JMP(LabelRef("rows4"))

	Label("rows1")
	TESTQ(R12, R12)
	JZ(LabelRef("done"))
	body("r", []GPPhysical{RSI})
	ADDQ(R8, RSI)
	next1()
	DECQ(R12)
	JMP(LabelRef("rows1"))

	Label("done")
	ret()
}

// gemvN takes the dot products of the rows with x two vectors at a time:
// row r's in V(r) and V(4+r), x in V8-V9.
func gemvN(l *level) {
	l.text("gemvN", "func(m, n int, alpha float64, a []float64, lda int, x, y []float64)")
	gemvSetup(l)
	VMOVSD(addr(Param("alpha")), X15)
	gemvRows(func(p string, rows []GPPhysical) {
		dotRows(l, p, p+"sum", rows)
		for r := range rows {
			y := Mem{Base: RDX, Disp: 8 * r}
			VMOVSD(y, X13)
			VFMADD231SD(l.V(r).AsX(), X15, X13)
			VMOVSD(X13, y)
		}
	}, func() { ADDQ(U32(32), RDX) }, func() { ADDQ(U32(8), RDX) })
}

// gemvT adds alpha*x[i] times row i to y two vectors at a time: y in
// V0-V1, alpha*x[i] for row r in V(4+r).
func gemvT(l *level) {
	l.text("gemvT", "func(m, n int, alpha float64, a []float64, lda int, x, y []float64)")
	gemvSetup(l)
	VBROADCASTSD(addr(Param("alpha")), l.V(15))
	gemvRows(func(p string, rows []GPPhysical) {
		for r := range rows {
			VBROADCASTSD(Mem{Base: RDI, Disp: 8 * r}, l.V(4+r))
		}
		for r := range rows {
			VMULPD(l.V(15), l.V(4+r), l.V(4+r))
		}
		addRowsToY(l, p, 2, p+"next", rows)
	}, func() { ADDQ(U32(32), RDI) }, func() { ADDQ(U32(8), RDI) })
}

// ger adds alpha*x[i] times y to row i of a, four rows at a time so that
// each vector of y is loaded once for them, two vectors at a time: y in
// V8-V9, alpha*x[i] for row r in V(4+r), row r's two vectors in V(r)
// and V(10+r). Each element is one fused multiply-add of alpha*x[i]
// (rounded first) and y[j] into a[i][j], as axpy makes it.
func ger(l *level) {
	l.text("ger", "func(m, n int, alpha float64, a []float64, lda int, x, y []float64)")
	gemvSetup(l)
	VBROADCASTSD(addr(Param("alpha")), l.V(15))
	gemvRows(func(p string, rows []GPPhysical) {
		for r := range rows {
			VBROADCASTSD(Mem{Base: RDI, Disp: 8 * r}, l.V(4+r))
		}
		for r := range rows {
			VMULPD(l.V(15), l.V(4+r), l.V(4+r))
		}
		XORQ(RBX, RBX)
		MOVQ(R13, RCX)
		l.span(p, 2, l.indexed, false, p+"next", func(k int, a access) {
			for j := 0; j < k; j++ {
				a.load(RDX, j, l.V(8+j))
			}
			reg := func(r, j int) VecPhysical {
				if j == 0 {
					return l.V(r)
				}
				return l.V(10 + r)
			}
			for r, row := range rows {
				for j := 0; j < k; j++ {
					a.load(row, j, reg(r, j))
				}
			}
			for r := range rows {
				for j := 0; j < k; j++ {
					VFMADD231PD(l.V(8+j), l.V(4+r), reg(r, j))
				}
			}
			for r, row := range rows {
				for j := 0; j < k; j++ {
					a.store(reg(r, j), row, j)
				}
			}
		}, advance(RBX))
	}, func() { ADDQ(U32(32), RDI) }, func() { ADDQ(U32(8), RDI) })
}

// gemvNT makes two products with each group of four rows of a (one row
// at a time at the end) while they are in cache: the dot products with
// x (as gemvN: row r's in V(r) and V(4+r), x in V8-V9), then from each
// dot product d the pair (t, c) = (xc[2i], xc[2i+1]) of the row becomes
// t' = alpha*(d - t) and c' = c - t', and last y += c'*row (as gemvT,
// but four vectors of y at a time in V0-V3; c' for row r in V(4+r)).
// xc's pointer is in AX.
func gemvNT(l *level) {
	l.text("gemvNT", "func(m, n int, alpha float64, a []float64, lda int, x, y, xc []float64)")
	gemvSetup(l)
	Load(Param("xc").Base(), RAX)
	VMOVSD(addr(Param("alpha")), X15)
	gemvRows(func(p string, rows []GPPhysical) {
		dotRows(l, p+"n", p+"nsum", rows)
		for r := range rows {
			t := Mem{Base: RAX, Disp: 16 * r}
			c := Mem{Base: RAX, Disp: 16*r + 8}
			VSUBSD(t, l.V(r).AsX(), X13) // d - t
			VMULSD(X15, X13, X13)        // t' = alpha*(d - t)
			VMOVSD(X13, t)
			VMOVSD(c, X12)
			VSUBSD(X13, X12, X12) // c' = c - t'
			VMOVSD(X12, c)
			VBROADCASTSD(c, l.V(4+r))
		}
		// Four vectors of y at a time: each takes a chain of four
		// dependent additions (one per row), which two vectors at a
		// time left waiting on the adder's latency.
		addRowsToY(l, p+"t", 4, p+"tnext", rows)
	}, func() { ADDQ(U32(64), RAX) }, func() { ADDQ(U32(16), RAX) })
}

// secular sums the terms of the secular equation over g and r: with
// inv = 1/((g[i] - o) - t), one true division per element, tx = r[i]*inv
// is added to s and tx*inv (one fused multiply-add) to ds. Four vectors
// at a time: the differences and then inv in V8-V11, tx in V12, the one
// constant in V13, t in V15 and o broadcast to a vector on the stack
// (AVX2 has no register left for it); the s accumulators are V0-V3 and
// the ds ones V4-V7, each four folded as a reduction's (single vectors
// into V0 and V4, the tail into V1 and V5). The tail's masked-off lanes
// read g = r = 0, whose 1/((0 - o) - t) may be infinite: inv is zeroed
// there (a zeroing division under K1, or an AND with the mask), so they
// add exact zeros.
func secular(l *level) {
	l.text("secular", "func(g, r []float64, o, t float64) (s, ds float64)")
	ov := AllocLocal(l.bytes())
	Load(Param("g").Base(), RSI)
	Load(Param("g").Len(), RCX)
	Load(Param("r").Base(), RDI)
	VBROADCASTSD(addr(Param("o")), l.V(12))
	VMOVUPD(l.V(12), ov)
	VBROADCASTSD(addr(Param("t")), l.V(15))
	MOVQ(U64(0x3ff0000000000000), RAX)
	if l.avx512 {
		VPBROADCASTQ(RAX, l.V(13))
	} else {
		VMOVQ(RAX, X13)
		VPBROADCASTQ(X13, l.V(13))
	}
	for i := 0; i < 8; i++ {
		l.zero(l.V(i))
	}
	l.span("", 4, l.direct, true, "done", func(k int, a access) {
		for j := 0; j < k; j++ {
			a.load(RSI, j, l.V(8+j))
		}
		for j := 0; j < k; j++ {
			VSUBPD(ov, l.V(8+j), l.V(8+j))
			VSUBPD(l.V(15), l.V(8+j), l.V(8+j))
		}
		for j := 0; j < k; j++ {
			l.divTail(l.V(13), l.V(8+j), a.tail)
		}
		for j := 0; j < k; j++ {
			s, ds := l.V(j), l.V(4+j)
			if a.tail {
				s, ds = l.V(1), l.V(5)
			}
			tx := l.V(12)
			VMULPD(a.src(RDI, j, tx), l.V(8+j), tx)
			VADDPD(tx, s, s)
			VFMADD231PD(l.V(8+j), tx, ds)
		}
	}, advance(RSI, RDI))
	l.sums(2)
	ret()
}

// sums folds the accumulators V0-V3 (and V4-V7 when n is 2) as a
// reduction does, (a0+a1)+(a2+a3) and the lanes halved pairwise, and
// stores them as the results.
func (l *level) sums(n int) {
	for k := 0; k < n; k++ {
		b := 4 * k
		VADDPD(l.V(b+1), l.V(b), l.V(b))
		VADDPD(l.V(b+3), l.V(b+2), l.V(b+2))
		VADDPD(l.V(b+2), l.V(b), l.V(b))
		l.hsum(l.V(b), l.V(b+1))
		VMOVSD(l.V(b).AsX(), addr(ReturnIndex(k)))
	}
}

// divTail sets d to n/d, zeroed in the tail's masked-off lanes (whose
// quotient of two loaded zeros, or of zero by a zero, may be a NaN).
func (l *level) divTail(n, d VecPhysical, tail bool) {
	switch {
	case tail && l.avx512:
		VDIVPD_Z(d, n, K1, d)
	case tail:
		VDIVPD(d, n, d)
		VANDPD(ymm[14], d, d)
	default:
		VDIVPD(d, n, d)
	}
}

// secularVec forms one eigenvector of the secular equation's merge:
// v[i] = z[i] / ((d[i] - o) - t), one true division each, and returns
// Σ v[i]² summed as a reduction (the tail into V1). Four vectors at a
// time: the denominators and then v in V8-V11, z in V12, o in V13, t in
// V15.
func secularVec(l *level) {
	l.text("secularVec", "func(z, d []float64, o, t float64, v []float64) float64")
	Load(Param("z").Base(), RSI)
	Load(Param("z").Len(), RCX)
	Load(Param("d").Base(), RDI)
	Load(Param("v").Base(), RDX)
	VBROADCASTSD(addr(Param("o")), l.V(13))
	VBROADCASTSD(addr(Param("t")), l.V(15))
	for i := 0; i < 4; i++ {
		l.zero(l.V(i))
	}
	l.span("", 4, l.direct, true, "done", func(k int, a access) {
		for j := 0; j < k; j++ {
			a.load(RDI, j, l.V(8+j))
		}
		for j := 0; j < k; j++ {
			VSUBPD(l.V(13), l.V(8+j), l.V(8+j))
			VSUBPD(l.V(15), l.V(8+j), l.V(8+j))
		}
		for j := 0; j < k; j++ {
			a.load(RSI, j, l.V(12))
			l.divTail(l.V(12), l.V(8+j), a.tail)
		}
		for j := 0; j < k; j++ {
			acc := l.V(j)
			if a.tail {
				acc = l.V(1)
			}
			a.store(l.V(8+j), RDX, j)
			VFMADD231PD(l.V(8+j), l.V(8+j), acc)
		}
	}, advance(RSI, RDI, RDX))
	l.sums(1)
	ret()
}

// secularVec2 forms one pair of singular vectors of the bidiagonal
// merge: v[i] = z[i] / (((d[i] - o) - t) * ((d[i] + o) + t)), one true
// division each, and u[i] = d[i]*v[i], and returns Σ v[i]² and Σ u[i]²,
// summed as a reduction's (the tails into V1 and V5). Four vectors at a
// time: the denominators and then v in V8-V11, the second factor, z and
// u in V12, o in V13, t in V15; u is in R8.
func secularVec2(l *level) {
	l.text("secularVec2", "func(z, d []float64, o, t float64, v, u []float64) (nv, nu float64)")
	Load(Param("z").Base(), RSI)
	Load(Param("z").Len(), RCX)
	Load(Param("d").Base(), RDI)
	Load(Param("v").Base(), RDX)
	Load(Param("u").Base(), R8)
	VBROADCASTSD(addr(Param("o")), l.V(13))
	VBROADCASTSD(addr(Param("t")), l.V(15))
	for i := 0; i < 8; i++ {
		l.zero(l.V(i))
	}
	l.span("", 4, l.direct, true, "done", func(k int, a access) {
		for j := 0; j < k; j++ {
			dv := l.V(8 + j)
			a.load(RDI, j, dv)
			VADDPD(l.V(13), dv, l.V(12))
			VADDPD(l.V(15), l.V(12), l.V(12))
			VSUBPD(l.V(13), dv, dv)
			VSUBPD(l.V(15), dv, dv)
			VMULPD(l.V(12), dv, dv)
		}
		for j := 0; j < k; j++ {
			a.load(RSI, j, l.V(12))
			l.divTail(l.V(12), l.V(8+j), a.tail)
		}
		for j := 0; j < k; j++ {
			nv, nu := l.V(j), l.V(4+j)
			if a.tail {
				nv, nu = l.V(1), l.V(5)
			}
			v := l.V(8 + j)
			a.store(v, RDX, j)
			VFMADD231PD(v, v, nv)
			VMULPD(a.src(RDI, j, l.V(12)), v, l.V(12))
			a.store(l.V(12), R8, j)
			VFMADD231PD(l.V(12), l.V(12), nu)
		}
	}, advance(RSI, RDI, RDX, R8))
	l.sums(2)
	ret()
}

// hprod multiplies the lanes of v into its low lane, halving as hsum
// adds (clobbers s).
func (l *level) hprod(v, s VecPhysical) {
	if l.avx512 {
		VEXTRACTF64X4(U8(1), v, s.AsY())
		VMULPD(s.AsY(), v.AsY(), v.AsY())
	}
	VEXTRACTF128(U8(1), v.AsY(), s.AsX())
	VMULPD(s.AsX(), v.AsX(), v.AsX())
	VPERMILPD(U8(1), v.AsX(), s.AsX())
	VMULSD(s.AsX(), v.AsX(), v.AsX())
}

// zhat multiplies the ratios of Gu and Eisenstat's recomputed z: with
// the roots o[i] + t[i] and the poles d[i], the product over i of
// ((o[i] - p) + t[i]) / (d[i] - p), one true division each, or with sq
// of (((o[i] - p) + t[i]) * ((o[i] + p) + t[i])) / ((d[i] - p) * (d[i] +
// p)), the ratio of differences of squares. The products are kept in
// four accumulators V0-V3 (initially one) as a reduction's sums are
// (single vectors into V0, the tail into V1), then (a0*a1)*(a2*a3) and
// the lanes multiplied pairwise. Four vectors at a time: numerators in
// V4-V7, denominators (first t) in V8-V11, p in V12, one in V13, the
// second factors in V15. The tail's masked-off lanes divide zeros: their
// ratio is replaced by one (a merge-masked multiplication into the
// accumulator, or a blend with one).
func zhat(l *level, sq bool) {
	name := "zhat"
	if sq {
		name = "zhat2"
	}
	l.text(name, "func(o, t, d []float64, p float64) float64")
	Load(Param("o").Base(), RSI)
	Load(Param("t").Base(), RDI)
	Load(Param("d").Base(), RDX)
	Load(Param("d").Len(), RCX)
	VBROADCASTSD(addr(Param("p")), l.V(12))
	MOVQ(U64(0x3ff0000000000000), RAX)
	if l.avx512 {
		VPBROADCASTQ(RAX, l.V(13))
		for i := 0; i < 4; i++ {
			VMOVAPD(l.V(13), l.V(i))
		}
	} else {
		VMOVQ(RAX, X13)
		VPBROADCASTQ(X13, l.V(13))
		for i := 0; i < 4; i++ {
			VMOVAPD(l.V(13), l.V(i))
		}
	}
	l.span("", 4, l.direct, true, "done", func(k int, a access) {
		for j := 0; j < k; j++ {
			num, den := l.V(4+j), l.V(8+j)
			a.load(RDI, j, den) // t
			a.load(RSI, j, num)
			VSUBPD(l.V(12), num, num)
			VADDPD(den, num, num)
			if sq {
				a.load(RSI, j, l.V(15))
				VADDPD(l.V(12), l.V(15), l.V(15))
				VADDPD(den, l.V(15), l.V(15))
				VMULPD(l.V(15), num, num)
			}
			a.load(RDX, j, den)
			if sq {
				VADDPD(l.V(12), den, l.V(15))
			}
			VSUBPD(l.V(12), den, den)
			if sq {
				VMULPD(l.V(15), den, den)
			}
		}
		for j := 0; j < k; j++ {
			num, den := l.V(4+j), l.V(8+j)
			VDIVPD(den, num, num)
			acc := l.V(j)
			switch {
			case a.tail && l.avx512:
				acc = l.V(1)
				VMULPD(num, acc, K1, acc)
			case a.tail:
				acc = l.V(1)
				VBLENDVPD(ymm[14], num, l.V(13), num)
				VMULPD(num, acc, acc)
			default:
				VMULPD(num, acc, acc)
			}
		}
	}, advance(RSI, RDI, RDX))
	VMULPD(l.V(1), l.V(0), l.V(0))
	VMULPD(l.V(3), l.V(2), l.V(2))
	VMULPD(l.V(2), l.V(0), l.V(0))
	l.hprod(l.V(0), l.V(1))
	VMOVSD(l.V(0).AsX(), addr(ReturnIndex(0)))
	ret()
}

// addRowsToY adds to y (at RDX, n elements, RCX = R13) each row of the
// group rows times its factor in V(4+r), width vectors of y at a time
// (the span's labels from p, the next group's label next): y's vectors
// in V(0)..., each row's in V(8+r). The transposed products of gemvT and
// gemvNT end this way.
func addRowsToY(l *level, p string, width int, next string, rows []GPPhysical) {
	XORQ(RBX, RBX)
	MOVQ(R13, RCX)
	l.span(p, width, l.indexed, false, next, func(k int, a access) {
		for j := 0; j < k; j++ {
			a.load(RDX, j, l.V(j))
		}
		for r, row := range rows {
			for j := 0; j < k; j++ {
				VFMADD231PD(a.src(row, j, l.V(8+r)), l.V(4+r), l.V(j))
			}
		}
		for j := 0; j < k; j++ {
			a.store(l.V(j), RDX, j)
		}
	}, advance(RBX))
}

// dotRows leaves in the low lane of V(r) the dot product of x (at RDI,
// n elements, RCX = R13) with each row of the group rows, two vectors
// of x at a time (the span's labels from p, the next group's label
// next): x in V8-V9, two accumulators a row (V(r), V(4+r)) folded at the
// end. The products of gemvN and gemvNT start this way.
func dotRows(l *level, p, next string, rows []GPPhysical) {
	for r := range rows {
		l.zero(l.V(r))
		l.zero(l.V(4 + r))
	}
	XORQ(RBX, RBX)
	MOVQ(R13, RCX)
	l.span(p, 2, l.indexed, false, next, func(k int, a access) {
		for j := 0; j < k; j++ {
			a.load(RDI, j, l.V(8+j))
		}
		for r, row := range rows {
			for j := 0; j < k; j++ {
				acc := l.V(r + 4*j)
				if a.tail {
					acc = l.V(4 + r)
				}
				VFMADD231PD(a.src(row, j, l.V(10+r%2)), l.V(8+j), acc)
			}
		}
	}, advance(RBX))
	for r := range rows {
		VADDPD(l.V(4+r), l.V(r), l.V(r))
	}
	for r := range rows {
		l.hsum(l.V(r), l.V(12))
	}
}

// axpyRows adds to y the rows of x that idx lists, each times its
// coefficient: y[j] += coef[e] * x[idx[e]*ldx+j] for every e in order,
// a fused multiply-add per element, as AxpyAt row after row. y is taken
// in blocks of up to four vectors (the last one partial under the tail
// mask) held in V0-V3 while every row goes by, so y is loaded and stored
// once per block, not once per row. The coefficient is in V15, the
// partial vector's part of the row in V(4+j); idx in R8, coef in R9,
// the row count in R10, the row stride in bytes in R11, the row counter
// in R12 and the row's offset in BX.
func axpyRows(l *level) {
	l.text("axpyRows", "func(y, x []float64, ldx int, idx []int32, coef []float64)")
	Load(Param("y").Base(), RDI)
	Load(Param("y").Len(), RCX)
	Load(Param("x").Base(), RSI)
	Load(Param("ldx"), R11)
	SHLQ(U8(3), R11)
	Load(Param("idx").Base(), R8)
	Load(Param("coef").Base(), R9)
	Load(Param("idx").Len(), R10)
	TESTQ(R10, R10)
	JZ(LabelRef("done"))
	// block emits the pass over the rows for k vectors of y, the last
	// one under the tail mask when tail is set.
	block := func(p string, k int, tail bool) {
		// Vector j of y (direct) and of a row (indexed by BX), under
		// the mask when it is the partial one.
		y := func(j int) access { return access{l: l, tail: tail && j == k-1, at: l.direct} }
		row := func(j int) access { return access{l: l, tail: tail && j == k-1, at: l.indexed} }
		for j := 0; j < k; j++ {
			y(j).load(RDI, j, l.V(j))
		}
		XORQ(R12, R12)
		Label(p + "row")
		MOVLQSX(Mem{Base: R8, Index: R12, Scale: 4}, RBX)
		IMULQ(R11, RBX)
		VBROADCASTSD(Mem{Base: R9, Index: R12, Scale: 8}, l.V(15))
		for j := 0; j < k; j++ {
			VFMADD231PD(row(j).src(RSI, j, l.V(4+j)), l.V(15), l.V(j))
		}
		INCQ(R12)
		CMPQ(R12, R10)
		JB(LabelRef(p + "row"))
		for j := 0; j < k; j++ {
			y(j).store(l.V(j), RDI, j)
		}
	}
	n := 4 * l.lanes
	Label("blocks")
	CMPQ(RCX, U32(n))
	JB(LabelRef("last"))
	block("b", 4, false)
	ADDQ(U32(n*8), RDI)
	ADDQ(U32(n*8), RSI)
	SUBQ(U32(n), RCX)
	JMP(LabelRef("blocks"))

	// The last 1 to 4*lanes-1 elements: k vectors, the last one holding
	// CX - (k-1)*lanes of them (1 to lanes) under the mask.
	Label("last")
	TESTQ(RCX, RCX)
	JZ(LabelRef("done"))
	for k := 1; k <= 4; k++ {
		p := fmt.Sprintf("t%d", k)
		if k < 4 {
			CMPQ(RCX, U32(k*l.lanes))
			JA(LabelRef(p + "next"))
		}
		if k > 1 {
			SUBQ(U32((k-1)*l.lanes), RCX)
		}
		l.setTail()
		block(p, k, true)
		JMP(LabelRef("done"))
		if k < 4 {
			Label(p + "next")
		}
	}
	Label("done")
	ret()
}
