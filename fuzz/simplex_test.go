package fuzz

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/simplex"
)

// FuzzReadMPS feeds arbitrary text to the MPS reader in every format: it
// must not panic, its errors must be *MPSError with a line number within
// the input (or one past its end), and a problem it accepts must pass
// Validate. Small accepted problems are solved, and an optimum must pass
// the optimality checks.
func FuzzReadMPS(f *testing.F) {
	seeds := []string{
		"NAME T\nROWS\n N c\n L r\nCOLUMNS\n x c 1 r 1\nRHS\n b r 4\nBOUNDS\n UP B x 3\nENDATA\n",
		"ROWS\n N c\n E e\n G g\nCOLUMNS\n x c -1 e 1\n y g 1\nRHS\n r e 2 g -1\nRANGES\n s e -1 g 4\nBOUNDS\n FR b x\n MI b y\n PL b y\nENDATA\n",
		"OBJSENSE MAX\nROWS\n N c\n L r\nCOLUMNS\n    MARKER  'MARKER'  'INTORG'\n x c 1 r 1\n    MARKER  'MARKER'  'INTEND'\nRHS\n r 5 c 2\nBOUNDS\n BV b x\n LI b x 0\n UI b x 1\nENDATA\n",
		"NAME\nROWS\n N  COST\n L  LIM 1\nCOLUMNS\n    X ONE     COST         1.0   LIM 1          1.0\nRHS\n              LIM 1        4.0\nENDATA\n",
		"ROWS\n N c\nCOLUMNS\n x c 1D+2\nBOUNDS\n FX b x -1.5e3\nENDATA",
		"* comment\n\nROWS\n N c\n L r\nCOLUMNS\n x r NaN\nENDATA\n",
	}
	if b, err := os.ReadFile("../simplex/testdata/netlib/afiro.mps"); err == nil {
		seeds = append(seeds, string(b))
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := bytes.Count(data, []byte("\n")) + 1
		for _, format := range []simplex.MPSFormat{simplex.MPSAuto, simplex.MPSFree, simplex.MPSFixed} {
			p, err := simplex.ReadMPS(bytes.NewReader(data), &simplex.MPSOptions{Format: format})
			if err != nil {
				var me *simplex.MPSError
				if !errors.As(err, &me) || !errors.Is(err, simplex.ErrMPS) {
					t.Fatalf("format %d: error %v is not an *MPSError", format, err)
				}
				if me.Line < 1 || me.Line > lines+1 {
					t.Fatalf("format %d: line %d outside 1..%d: %v", format, me.Line, lines+1, err)
				}
				if !strings.Contains(err.Error(), fmt.Sprintf("line %d", me.Line)) {
					t.Fatalf("format %d: message %q lacks the line", format, err)
				}
				continue
			}
			if err := p.Validate(); err != nil {
				t.Fatalf("format %d: accepted problem is invalid: %v", format, err)
			}
			if msg := mpsRoundTrip(p); msg != "" {
				t.Fatalf("format %d: WriteMPS then ReadMPS: %s", format, msg)
			}
			if p.NumRows() <= 30 && p.NumCols() <= 30 {
				solveAndCheck(t, p)
			}
		}
	})
}

// mpsRoundTrip writes p with WriteMPS, reads it back and describes the
// first difference ("" if none): sizes, sense, offset, costs, bounds
// and entries exactly, row limits within a rounding of the range (a
// range row keeps one limit and the range). A problem with a free row
// is skipped: WriteMPS writes it as an N row, which ReadMPS drops.
func mpsRoundTrip(p *simplex.Problem) string {
	for i := range p.RowLower {
		if math.IsInf(p.RowLower[i], -1) && math.IsInf(p.RowUpper[i], 1) {
			return ""
		}
	}
	var buf bytes.Buffer
	if err := simplex.WriteMPS(&buf, p); err != nil {
		return err.Error()
	}
	q, err := simplex.ReadMPS(&buf, &simplex.MPSOptions{Format: simplex.MPSFree})
	if err != nil {
		return fmt.Sprintf("%v in\n%s", err, buf.String())
	}
	if q.NumRows() != p.NumRows() || q.NumCols() != p.NumCols() || q.Maximize != p.Maximize || q.Offset != p.Offset {
		return "sizes, sense or offset differ"
	}
	for j := 0; j < p.NumCols(); j++ {
		if q.Obj[j] != p.Obj[j] || q.ColLower[j] != p.ColLower[j] || q.ColUpper[j] != p.ColUpper[j] {
			return fmt.Sprintf("column %d: cost or bounds differ", j)
		}
		for i := 0; i < p.NumRows(); i++ {
			if q.A.At(i, j) != p.A.At(i, j) {
				return fmt.Sprintf("entry (%d, %d) differs", i, j)
			}
		}
	}
	for i := 0; i < p.NumRows(); i++ {
		l, u := p.RowLower[i], p.RowUpper[i]
		tol := 2.3e-16 * math.Max(math.Abs(l), math.Abs(u))
		if math.IsInf(tol, 0) {
			tol = 0
		}
		if q.RowLower[i] != l && !(math.Abs(q.RowLower[i]-l) <= tol) || q.RowUpper[i] != u && !(math.Abs(q.RowUpper[i]-u) <= tol) {
			return fmt.Sprintf("row %d: limits [%g, %g] read back as [%g, %g]", i, l, u, q.RowLower[i], q.RowUpper[i])
		}
	}
	return ""
}

// lpFromBytes decodes a small LP: sizes, then for each row and column a
// bound kind, then matrix entries and costs as small multiples of 1/4.
func lpFromBytes(b []byte) *simplex.Problem {
	next := func() byte {
		if len(b) == 0 {
			return 0
		}
		v := b[0]
		b = b[1:]
		return v
	}
	val := func() float64 { return float64(int8(next())) / 4 }
	m, n := int(next()%7), int(next()%7)
	inf := math.Inf(1)
	limits := func(k byte) (float64, float64) {
		l, u := val(), val()
		if l > u {
			l, u = u, l
		}
		switch k % 6 {
		case 0:
			return l, u
		case 1:
			return l, l
		case 2:
			return l, inf
		case 3:
			return -inf, u
		case 4:
			return -inf, inf
		}
		return 0, inf
	}
	p := &simplex.Problem{
		Obj:      make([]float64, n),
		ColLower: make([]float64, n), ColUpper: make([]float64, n),
		RowLower: make([]float64, m), RowUpper: make([]float64, m),
		A: simplex.Sparse{Rows: m, Cols: n, ColStart: make([]int, n+1)},
	}
	for i := 0; i < m; i++ {
		p.RowLower[i], p.RowUpper[i] = limits(next())
	}
	for j := 0; j < n; j++ {
		p.ColLower[j], p.ColUpper[j] = limits(next())
		p.Obj[j] = val()
	}
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			if v := val(); v != 0 {
				p.A.RowIndex = append(p.A.RowIndex, i)
				p.A.Value = append(p.A.Value, v)
			}
		}
		p.A.ColStart[j+1] = len(p.A.RowIndex)
	}
	p.Maximize = next()%5 == 0
	return p
}

// FuzzSolve solves small LPs of every shape with each method: the
// statuses must agree, an optimum must pass the optimality checks (from
// the original data), the objectives must agree, and an unbounded
// problem must come with a valid ray.
func FuzzSolve(f *testing.F) {
	f.Add([]byte{2, 2, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13})
	f.Add([]byte{3, 4, 2, 3, 4, 5, 250, 6, 7, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
	f.Add([]byte{1, 1, 4, 0, 0, 4, 0, 0, 8, 4})
	f.Add([]byte{5, 3, 1, 1, 1, 1, 1, 2, 2, 2, 0, 0, 0, 255, 1, 254, 2, 253, 3, 252, 4, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8})
	f.Fuzz(func(t *testing.T, data []byte) {
		solveAndCheck(t, lpFromBytes(data))
	})
}

func solveAndCheck(t *testing.T, p *simplex.Problem) {
	t.Helper()
	var ref *simplex.Result
	for _, o := range []simplex.Options{{}, {Method: simplex.Primal}, {NoPerturbation: true}, {NoPresolve: true}} {
		res, err := simplex.Solve(context.Background(), p, &o)
		if err != nil && res == nil {
			t.Fatalf("valid problem rejected: %v", err)
		}
		switch res.Status {
		case simplex.Optimal:
			if msg := lpCheck(p, res); msg != "" {
				t.Fatalf("method %v: %s", o.Method, msg)
			}
		case simplex.Unbounded:
			if msg := lpRayCheck(p, res.Ray); msg != "" {
				t.Fatalf("method %v: %s", o.Method, msg)
			}
		case simplex.Infeasible:
		default:
			t.Fatalf("method %v: status %v (%v)", o.Method, res.Status, err)
		}
		if ref == nil {
			ref = res
			continue
		}
		if res.Status != ref.Status {
			t.Fatalf("statuses differ: %v and %v", ref.Status, res.Status)
		}
		if res.Status == simplex.Optimal && math.Abs(res.Objective-ref.Objective) > 1e-7*(1+math.Abs(ref.Objective)) {
			t.Fatalf("objectives differ: %.12g and %.12g", ref.Objective, res.Objective)
		}
	}
}

// lpCheck verifies primal feasibility, dual feasibility and complementary
// slackness of res from the data of p, and the duality gap; it returns a
// description of the first violation beyond 1e-7 (relative), or "".
func lpCheck(p *simplex.Problem, res *simplex.Result) string {
	const tol = 1e-7
	m, n := p.NumRows(), p.NumCols()
	sign := 1.0
	if p.Maximize {
		sign = -1
	}
	act := make([]float64, m)
	absAct := make([]float64, m)
	d := make([]float64, n)
	absD := make([]float64, n)
	for j := 0; j < n; j++ {
		d[j], absD[j] = p.Obj[j], math.Abs(p.Obj[j])
		for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
			i, a := p.A.RowIndex[k], p.A.Value[k]
			act[i] += a * res.X[j]
			absAct[i] += math.Abs(a * res.X[j])
			d[j] -= a * res.RowDuals[i]
			absD[j] += math.Abs(a * res.RowDuals[i])
		}
	}
	check := func(what string, i int, v, lo, up, dual, vscale, dscale float64) string {
		if v < lo-tol*(vscale+math.Abs(lo)) || v > up+tol*(vscale+math.Abs(up)) {
			return fmt.Sprintf("%s %d: value %g outside [%g, %g]", what, i, v, lo, up)
		}
		atLo := !math.IsInf(lo, 0) && math.Abs(v-lo) <= 1e-9*(vscale+math.Abs(lo))
		atUp := !math.IsInf(up, 0) && math.Abs(v-up) <= 1e-9*(vscale+math.Abs(up))
		dual *= sign
		switch {
		case atLo && atUp:
		case atLo && dual < -tol*dscale:
			return fmt.Sprintf("%s %d at its lower limit with dual %g", what, i, dual)
		case atUp && dual > tol*dscale:
			return fmt.Sprintf("%s %d at its upper limit with dual %g", what, i, dual)
		case !atLo && !atUp && math.Abs(dual) > tol*dscale:
			return fmt.Sprintf("%s %d strictly inside with dual %g", what, i, dual)
		}
		return ""
	}
	for j := 0; j < n; j++ {
		if msg := check("column", j, res.X[j], p.ColLower[j], p.ColUpper[j], d[j], 1, 1+absD[j]); msg != "" {
			return msg
		}
		if dj := res.ReducedCosts[j]; math.Abs(dj-d[j]) > 1e-9*(1+absD[j]) {
			return fmt.Sprintf("reported reduced cost %g of column %d, recomputed %g", dj, j, d[j])
		}
	}
	for i := 0; i < m; i++ {
		if msg := check("row", i, act[i], p.RowLower[i], p.RowUpper[i], res.RowDuals[i], 1+absAct[i], 1+math.Abs(res.RowDuals[i])); msg != "" {
			return msg
		}
	}
	return ""
}

// lpRayCheck verifies that r is a direction of unboundedness of p.
func lpRayCheck(p *simplex.Problem, r []float64) string {
	if r == nil {
		return "unbounded without a ray"
	}
	sign := 1.0
	if p.Maximize {
		sign = -1
	}
	var cr, scale float64
	for j, v := range r {
		cr += sign * p.Obj[j] * v
		scale = math.Max(scale, math.Abs(v))
	}
	tol := 1e-9 * scale
	for j, v := range r {
		if (!math.IsInf(p.ColLower[j], 0) && v < -tol) || (!math.IsInf(p.ColUpper[j], 0) && v > tol) {
			return fmt.Sprintf("ray leaves the bounds of column %d: %g", j, v)
		}
	}
	if !(cr < 0) {
		return fmt.Sprintf("ray does not improve the objective: %g", cr)
	}
	for i, v := range p.A.MulVec(r) {
		if (!math.IsInf(p.RowLower[i], 0) && v < -tol) || (!math.IsInf(p.RowUpper[i], 0) && v > tol) {
			return fmt.Sprintf("ray leaves row %d: %g", i, v)
		}
	}
	return ""
}

// FuzzL1Min compares L1Min on small B and q with the same problem solved
// as a general LP: min sum(u + v) s.t. B w - u + v = 0, q^T w = 1.
func FuzzL1Min(f *testing.F) {
	f.Add([]byte{5, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1, 2})
	f.Add([]byte{8, 3, 4, 0, 0, 0, 4, 0, 0, 0, 4, 4, 4, 0, 252, 4, 0, 8, 8, 8, 1, 0, 0})
	f.Add([]byte{3, 1, 1, 2, 3, 1})
	f.Add([]byte("c701010100\x00\x00\xff0\xff\xff000"))    // rank-deficient B: optimum 0
	f.Add([]byte("c701000107\x00\x00\xff0\xff\xff90\x7f")) // nearly singular B
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		n, k := 1+int(data[0]%12), 1+int(data[1]%4)
		data = data[2:]
		val := func() float64 {
			if len(data) == 0 {
				return 0
			}
			v := float64(int8(data[0])) / 8
			data = data[1:]
			return v
		}
		b := mat.Zeros(n, k)
		for i := 0; i < n; i++ {
			for j := 0; j < k; j++ {
				b.Set(i, j, val())
			}
		}
		q := make([]float64, k)
		zero := true
		for j := range q {
			q[j] = val()
			zero = zero && q[j] == 0
		}
		res, err := simplex.L1Min(b, q, nil)
		if zero {
			if !errors.Is(err, simplex.ErrInfeasible) {
				t.Fatalf("zero q: %v", err)
			}
			return
		}
		// The reference LP.
		inf := math.Inf(1)
		nv := k + 2*n
		p := &simplex.Problem{
			Obj: make([]float64, nv), ColLower: make([]float64, nv), ColUpper: make([]float64, nv),
			RowLower: make([]float64, n+1), RowUpper: make([]float64, n+1),
			A: simplex.Sparse{Rows: n + 1, Cols: nv, ColStart: make([]int, nv+1)},
		}
		for j := 0; j < nv; j++ {
			p.ColUpper[j] = inf
			if j < k {
				p.ColLower[j] = -inf
			} else {
				p.Obj[j] = 1
			}
		}
		p.RowLower[n], p.RowUpper[n] = 1, 1
		for j := 0; j < k; j++ {
			for i := 0; i < n; i++ {
				if v := b.At(i, j); v != 0 {
					p.A.RowIndex = append(p.A.RowIndex, i)
					p.A.Value = append(p.A.Value, v)
				}
			}
			if q[j] != 0 {
				p.A.RowIndex = append(p.A.RowIndex, n)
				p.A.Value = append(p.A.Value, q[j])
			}
			p.A.ColStart[j+1] = len(p.A.RowIndex)
		}
		for t := 0; t < 2*n; t++ {
			p.A.RowIndex = append(p.A.RowIndex, t%n)
			p.A.Value = append(p.A.Value, float64(2*(t/n)-1))
			p.A.ColStart[k+t+1] = len(p.A.RowIndex)
		}
		ref, rerr := simplex.Solve(context.Background(), p, nil)
		if rerr != nil {
			// q^T w = 1 with B w = 0 ... the LP is always feasible for q != 0
			// and bounded below by 0.
			t.Fatalf("reference LP: %v", rerr)
		}
		if err != nil {
			t.Fatalf("L1Min: %v (reference optimum %g)", err, ref.Objective)
		}
		var qw, qwAbs float64
		for j := range q {
			qw += q[j] * res.W[j]
			qwAbs += math.Abs(q[j] * res.W[j])
		}
		if math.Abs(qw-1) > 1e-13*(1+qwAbs) {
			t.Fatalf("q^T w = %.15g (sum |q_j w_j| = %g)", qw, qwAbs)
		}
		// The reference's objective sum(u + v) satisfies its rows only
		// within the feasibility tolerance: evaluate its w exactly. Both
		// answers then carry rounding errors of the size of the terms of
		// B w times the condition of their bases (up to ~1e9 for the nearly
		// singular B that small integer data produce).
		wr := ref.X[:k]
		var qwr float64
		for j := range q {
			qwr += q[j] * wr[j]
		}
		var refVal, terms float64
		for i := 0; i < n; i++ {
			var s float64
			for j := 0; j < k; j++ {
				s += b.At(i, j) * wr[j] / qwr
				terms += math.Abs(b.At(i, j)*res.W[j]) + math.Abs(b.At(i, j)*wr[j]/qwr)
			}
			refVal += math.Abs(s)
		}
		if math.Abs(res.Norm-refVal) > 1e-8*(1+refVal)+1e-7*terms {
			t.Fatalf("L1Min %.12g, LP %.12g (its objective %.12g)", res.Norm, refVal, ref.Objective)
		}
	})
}
