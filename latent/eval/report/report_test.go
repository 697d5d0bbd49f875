package report_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/moments-go/moments/internal/testutil/mattest"
	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/eval/report"
	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

// TestCompare: a hand-built estimate whose distance, raw and thresholded
// support are worked out by hand.
func TestCompare(t *testing.T) {
	truth := mat.FromRows([][]float64{
		{1, 0},
		{2, 0},
		{0, 3},
		{0, 4},
	})
	// Column 0: the truth plus a small false entry (0.05 < 0.1 * 2, so
	// it is dropped by the threshold). Column 1: misses row 3.
	est := mat.FromRows([][]float64{
		{1, 0},
		{2, 0},
		{0.05, 3},
		{0, 0},
	})
	m := report.Compare(truth, est, 0.1)
	// Raw: tp 3, fp 1, fn 1. Thresholded: tp 3, fp 0, fn 1.
	if m.Prec != 0.75 || m.Rec != 0.75 || m.PrecT != 1 || m.RecT != 0.75 || m.Tau != 0.1 {
		t.Errorf("support: got %+v, want prec 0.75 rec 0.75 precT 1 recT 0.75 tau 0.1", m)
	}
	// dist: column 0 leaves 5 - 25/5.0025 = 0.0125/5.0025 (nearest: est
	// column 0), column 1 leaves 25 - 81/9 = 16 (est column 1); ||A||^2 = 30.
	want := (0.0125/5.0025 + 16) / 30
	if e := math.Abs(m.Dist-want) / want; !(e <= 1e-14) {
		t.Errorf("dist = %.17g, want %.17g (relative error %.3g > 1e-14)", m.Dist, want, e)
	}
	// Relative Frobenius error: the differences are 0.05 and -4, so
	// sqrt(16.0025 / 30).
	if want := math.Sqrt(16.0025 / 30); math.Abs(m.RelErr-want) > 1e-15 {
		t.Errorf("relative error %.17g, want %.17g", m.RelErr, want)
	}

	// The exact estimate: distance 0, precision and recall 1.
	if m := report.Compare(truth, truth, 0.1); m.Dist != 0 || m.Prec != 1 || m.Rec != 1 || m.PrecT != 1 || m.RecT != 1 {
		t.Errorf("exact estimate: %+v", m)
	}

	// Add and Scale average two reports.
	var sum report.Metrics
	sum.Add(m)
	sum.Add(report.Compare(truth, truth, 0.1))
	sum.Scale(0.5)
	avg := report.Metrics{Dist: m.Dist / 2, RelErr: m.RelErr / 2, Prec: 0.875, Rec: 0.875, PrecT: 1, RecT: 0.875, Tau: 0.1}
	if sum != avg {
		t.Errorf("average: got %+v, want %+v", sum, avg)
	}
	if got, want := avg.String(), strconv.FormatFloat(avg.Dist, 'f', 4, 64)+"  0.875/0.875  1.000/0.875"; got != want {
		t.Errorf("Format = %q, want %q", got, want)
	}
}

// TestColumns (eval.AlignColumns): an estimate with its columns permuted, sign-flipped and
// scaled by powers of two (exact in floating point) comes back in the
// truth's order and signs, exactly.
func TestColumns(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 1))
	truth := synth.BernoulliGaussian(r, 12, 4, 0.5)
	synth.EnsureGap(truth, 0.5)
	perm := []int{2, 0, 3, 1}             // column j of the truth is column perm[j] of est
	signs := []float64{-1, 1, -1, 1}      // and its sign there
	scales := []float64{2, 0.5, 4, 0.125} // and its (positive) scale
	n, k := truth.Dims()
	est := mat.Zeros(n, k)
	want := mat.Zeros(n, k)
	for j, p := range perm {
		for i := 0; i < n; i++ {
			est.Set(i, p, signs[j]*scales[j]*truth.At(i, j))
			want.Set(i, j, scales[j]*truth.At(i, j))
		}
	}
	got, gotPerm, gotSigns := eval.AlignColumns(truth, est)
	if !slices.Equal(gotPerm, perm) || !slices.Equal(gotSigns, signs) {
		t.Errorf("perm %v signs %v, want %v %v", gotPerm, gotSigns, perm, signs)
	}
	if e := mattest.MaxRelErr(want, got); e != 0 {
		t.Errorf("aligned columns differ from the truth's: max relative error %.3g, want 0", e)
	}
	// The aligned estimate is the truth up to the column scales.
	if m := report.Compare(truth, got, 0.1); !(m.Dist <= 1e-30) || m.Prec != 1 || m.Rec != 1 {
		t.Errorf("Compare after AlignColumns: %+v", m)
	}
}

// TestAlignDAG: a DAG estimate in other labels (columns of A permuted and
// sign-flipped, Lambda alike) comes back to the truth.
func TestAlignDAG(t *testing.T) {
	m := synth.RandomDAG(rand.New(rand.NewPCG(4, 1)), 30, 5, 0.3, 0.5, synth.Skewed)
	ta, tl := report.CanonicalDAG(m)
	n, k := ta.Dims()
	perm := []int{3, 0, 4, 1, 2}
	signs := []float64{1, -1, -1, 1, -1}
	d := &linear.DAG{A: mat.Zeros(n, k)}
	lambda := mat.Zeros(k, k)
	for j, p := range perm {
		for i := 0; i < n; i++ {
			d.A.Set(i, p, signs[j]*ta.At(i, j))
		}
		for i, q := range perm {
			lambda.Set(q, p, signs[i]*signs[j]*tl.At(i, j))
		}
	}
	a, l := report.AlignDAG(ta, d, lambda)
	if e := mattest.MaxRelErr(ta, a); !(e <= 1e-12) {
		t.Errorf("A: max relative error %.3g > 1e-12", e)
	}
	if e := mattest.MaxRelErr(tl, l); !(e <= 1e-12) {
		t.Errorf("Lambda: max relative error %.3g > 1e-12", e)
	}
}

// TestLearnDAGAligned: LearnDAG on exact population moments, aligned to
// CanonicalDAG, gives back A and Lambda: CanonicalDAG is the scaling
// LearnDAG identifies.
func TestLearnDAGAligned(t *testing.T) {
	m := synth.RandomDAG(rand.New(rand.NewPCG(4, 1)), 30, 5, 0.3, 0.5, synth.Skewed)
	if rep, err := linear.CheckExpansion(m.A, 0); err != nil || !rep.Holds {
		t.Fatal("the model lacks the expansion property")
	}
	d, err := linear.LearnDAG(context.Background(), m.Sigma(), linear.PsiFunc(m.Psi), 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	ta, tl := report.CanonicalDAG(m)
	a, l := report.AlignDAG(ta, d, d.Lambda)
	if e := mattest.MaxRelErr(ta, a); !(e <= 1e-8) {
		t.Errorf("A: max relative error %.3g > 1e-8", e)
	}
	if e := mattest.MaxRelErr(tl, l); !(e <= 1e-8) {
		t.Errorf("Lambda: max relative error %.3g > 1e-8", e)
	}
}

// TestAlignHierarchy: LearnHierarchy on the exact second moment of a
// small hierarchy (2 -> 10 -> 50; seed 28 is the first whose levels both
// satisfy the expansion and l1-recovery conditions) is recovered level by
// level once aligned.
func TestAlignHierarchy(t *testing.T) {
	h := synth.RandomHierarchy(rand.New(rand.NewPCG(28, 2)), []int{2, 10, 50}, 0.3, 0.5, synth.All)
	for l, a := range h.A {
		if rep, err := linear.CheckExpansion(a, 0); err != nil || !rep.Holds {
			t.Fatalf("level %d lacks the expansion property", l)
		}
		cov, err := linear.L1Recovery(context.Background(), a, h.LevelSigma(l), nil)
		if err != nil || slices.Contains(cov, false) {
			t.Fatalf("level %d: l1 recovery %v %v", l, cov, err)
		}
	}
	res, err := linear.LearnHierarchy(context.Background(), h.Sigma(), []int{2, 10}, &linear.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	truth, est := report.AlignHierarchy(h, res)
	if len(truth) != 2 || len(est) != 2 {
		t.Fatalf("%d true and %d estimated levels, want 2", len(truth), len(est))
	}
	for l := range truth {
		// The truth is in canonical form: unit-variance parents.
		if r, c := truth[l].Dims(); r != []int{10, 50}[l] || c != []int{2, 10}[l] {
			t.Errorf("level %d: truth is %dx%d", l, r, c)
		}
		if e := mattest.MaxRelErr(truth[l], est[l]); !(e <= 1e-8) {
			t.Errorf("level %d: max relative error %.3g > 1e-8", l, e)
		}
		if m := report.Compare(truth[l], est[l], 0.1); !(m.Dist <= 1e-16) || m.PrecT != 1 {
			t.Errorf("level %d: %+v", l, m)
		}
	}
}

func TestEntries(t *testing.T) {
	a := mat.FromRows([][]float64{{1, 2, 3}, {4, 5, 6}})
	b := mat.FromRows([][]float64{{-1, -2, -3}, {-4, -5, -6}})
	x, y := report.Entries(a, b)
	if !slices.Equal(x, []float64{1, 2, 3, 4, 5, 6}) || !slices.Equal(y, []float64{-1, -2, -3, -4, -5, -6}) {
		t.Errorf("Entries = %v, %v", x, y)
	}
	if x, y := report.Entries(mat.Zeros(0, 0), mat.Zeros(0, 0)); len(x) != 0 || len(y) != 0 {
		t.Errorf("Entries of empty matrices = %v, %v", x, y)
	}
}

// svgDoc is what checkSVG reads from an image.
type svgDoc struct {
	texts   []string     // the character data of every <text>
	panels  [][4]float64 // x, y, width, height of every panel frame
	circles [][]float64  // cx, cy of the points, by panel
}

// checkSVG decodes the whole image as XML, checks that every number in
// an attribute is finite and returns its texts, frames and points.
func checkSVG(t *testing.T, b []byte) svgDoc {
	t.Helper()
	var doc svgDoc
	dec := xml.NewDecoder(bytes.NewReader(b))
	var stack []string
	var text strings.Builder
	root := true
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("invalid XML: %v\n%s", err, b)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if root && tok.Name.Local != "svg" {
				t.Fatalf("root element <%s>, want <svg>", tok.Name.Local)
			}
			root = false
			stack = append(stack, tok.Name.Local)
			attr := map[string]float64{}
			for _, a := range tok.Attr {
				for _, f := range strings.FieldsFunc(a.Value, func(r rune) bool { return strings.ContainsRune(" (),", r) }) {
					if strings.Contains(strings.ToLower(f), "nan") || strings.Contains(strings.ToLower(f), "inf") {
						t.Errorf("<%s %s=%q>: not a finite number", tok.Name.Local, a.Name.Local, a.Value)
					}
				}
				switch a.Name.Local {
				case "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "width", "height":
					if strings.HasSuffix(a.Value, "%") {
						continue
					}
					v, err := strconv.ParseFloat(a.Value, 64)
					if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
						t.Errorf("<%s %s=%q>: not a finite number", tok.Name.Local, a.Name.Local, a.Value)
					}
					attr[a.Name.Local] = v
				}
			}
			switch {
			case tok.Name.Local == "text":
				text.Reset()
			case tok.Name.Local == "rect" && len(stack) >= 2 && stack[len(stack)-2] == "g":
				doc.panels = append(doc.panels, [4]float64{attr["x"], attr["y"], attr["width"], attr["height"]})
				doc.circles = append(doc.circles, nil)
			case tok.Name.Local == "circle":
				if len(doc.circles) == 0 {
					t.Fatalf("a point outside a panel")
				}
				doc.circles[len(doc.circles)-1] = append(doc.circles[len(doc.circles)-1], attr["cx"], attr["cy"])
			}
		case xml.CharData:
			if len(stack) > 0 && stack[len(stack)-1] == "text" {
				text.Write(tok)
			}
		case xml.EndElement:
			if tok.Name.Local == "text" {
				doc.texts = append(doc.texts, text.String())
			}
			stack = stack[:len(stack)-1]
		}
	}
	if root {
		t.Fatal("no element")
	}
	return doc
}

// inside reports whether every point of every panel lies in its frame.
func (d svgDoc) inside(t *testing.T) {
	t.Helper()
	for p, c := range d.circles {
		f := d.panels[p]
		for i := 0; i < len(c); i += 2 {
			if !(c[i] >= f[0] && c[i] <= f[0]+f[2] && c[i+1] >= f[1] && c[i+1] <= f[1]+f[3]) {
				t.Errorf("panel %d: point (%g, %g) outside the frame %v", p, c[i], c[i+1], f)
			}
		}
	}
}

func TestScatterSVG(t *testing.T) {
	x, y := report.Entries(mat.FromRows([][]float64{{1, 0, -2}, {0.5, 3, 0}}), mat.FromRows([][]float64{{1.1, 0, -1.9}, {0.4, 3.2, 0.01}}))
	panels := []report.Panel{
		{Title: "A", XLabel: "true", YLabel: "estimated", X: x, Y: y},
		{Title: "Lambda", XLabel: "true", YLabel: "estimated", X: []float64{0.3, -0.7}, Y: []float64{0.31, -0.69}},
		{Title: "empty", XLabel: "true", YLabel: "estimated"},
	}
	var b bytes.Buffer
	if err := report.ScatterSVG(&b, "recovery", 2, panels); err != nil {
		t.Fatal(err)
	}
	doc := checkSVG(t, b.Bytes())
	if len(doc.panels) != 3 {
		t.Fatalf("%d panel frames, want 3", len(doc.panels))
	}
	for p, want := range []int{6, 2, 0} {
		if got := len(doc.circles[p]) / 2; got != want {
			t.Errorf("panel %d: %d points, want %d", p, got, want)
		}
	}
	doc.inside(t)
	for _, s := range []string{"recovery", "A", "Lambda", "empty", "true", "estimated"} {
		if !slices.Contains(doc.texts, s) {
			t.Errorf("no text %q in %q", s, doc.texts)
		}
	}
	// Two panels a row: the third starts a second row, under the first.
	if doc.panels[2][0] != doc.panels[0][0] || !(doc.panels[2][1] > doc.panels[0][1]+doc.panels[0][3]) {
		t.Errorf("panel frames %v: the third is not under the first", doc.panels)
	}
}

// TestScatterSVGEscape: titles and labels with markup characters come out
// as text.
func TestScatterSVGEscape(t *testing.T) {
	var b bytes.Buffer
	pan := report.Panel{Title: `a<b & c>"d'`, XLabel: "<x>", YLabel: "&y;", X: []float64{1}, Y: []float64{2}}
	if err := report.ScatterSVG(&b, "<&>", 1, []report.Panel{pan}); err != nil {
		t.Fatal(err)
	}
	doc := checkSVG(t, b.Bytes())
	for _, s := range []string{"<&>", pan.Title, pan.XLabel, pan.YLabel} {
		if !slices.Contains(doc.texts, s) {
			t.Errorf("no text %q in %q", s, doc.texts)
		}
	}
}

// TestScatterSVGNonFinite: points with a NaN or infinite coordinate are
// left out, and no NaN or Inf reaches the image.
func TestScatterSVGNonFinite(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	pan := report.Panel{
		Title: "non-finite",
		X:     []float64{0, 1, nan, inf, 2, -inf, 0.5},
		Y:     []float64{0, 1, 1, 1, -inf, 3, nan},
	}
	all := report.Panel{Title: "none finite", X: []float64{nan, inf}, Y: []float64{inf, nan}}
	var b bytes.Buffer
	if err := report.ScatterSVG(&b, "t", 3, []report.Panel{pan, all}); err != nil {
		t.Fatal(err)
	}
	doc := checkSVG(t, b.Bytes())
	if len(doc.circles) != 2 {
		t.Fatalf("%d panels, want 2", len(doc.circles))
	}
	if got := len(doc.circles[0]) / 2; got != 2 {
		t.Errorf("%d points drawn, want the 2 finite ones", got)
	}
	if got := len(doc.circles[1]) / 2; got != 0 {
		t.Errorf("%d points drawn from a panel without a finite one", got)
	}
	doc.inside(t)
}

// TestScatterSVGDegenerate: panels whose points span no range (one point,
// equal points, points an ulp apart, all zeros) and empty input still
// give a finite image with every point in its frame.
func TestScatterSVGDegenerate(t *testing.T) {
	one := 1.0
	next := math.Nextafter(one, 2)
	panels := []report.Panel{
		{Title: "one point", X: []float64{5}, Y: []float64{5}},
		{Title: "equal", X: []float64{-3, -3}, Y: []float64{-3, -3}},
		{Title: "an ulp apart", X: []float64{one, next}, Y: []float64{next, one}},
		{Title: "zeros", X: []float64{0, 0}, Y: []float64{0, 0}},
		{Title: "tiny", X: []float64{1e-300, 2e-300}, Y: []float64{2e-300, 1e-300}},
	}
	var b bytes.Buffer
	if err := report.ScatterSVG(&b, "degenerate", 0, panels); err != nil {
		t.Fatal(err)
	}
	doc := checkSVG(t, b.Bytes())
	for p, pan := range panels {
		if got := len(doc.circles[p]) / 2; got != len(pan.X) {
			t.Errorf("panel %q: %d points, want %d", pan.Title, got, len(pan.X))
		}
	}
	doc.inside(t)

	b.Reset()
	if err := report.ScatterSVG(&b, "nothing", 3, nil); err != nil {
		t.Fatal(err)
	}
	if doc := checkSVG(t, b.Bytes()); len(doc.panels) != 0 || !slices.Contains(doc.texts, "nothing") {
		t.Errorf("no panels: %d frames, texts %q", len(doc.panels), doc.texts)
	}
}

// errWriter fails every write.
type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestScatterSVGWriteError(t *testing.T) {
	err := report.ScatterSVG(errWriter{}, "t", 1, []report.Panel{{X: []float64{1}, Y: []float64{1}}})
	if err == nil || err.Error() != "disk full" {
		t.Errorf("error %v, want disk full", err)
	}
}
