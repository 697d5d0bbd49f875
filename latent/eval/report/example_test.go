package report_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/moments-go/moments/latent/eval/report"
	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/synth"
)

// Example learns a DAG with 5 hidden and 30 observed variables from its
// population moments, aligns the estimate to the truth in canonical form
// (unit-variance hidden variables), prints dist, the relative
// error and the support's precision and recall, and draws the true against the learned entries.
func Example() {
	m := synth.RandomDAG(rand.New(rand.NewPCG(4, 1)), 30, 5, 0.3, 0.5, synth.Skewed)
	rep, err := linear.CheckExpansion(m.A, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println("expansion:", rep.Holds)

	d, err := linear.LearnDAG(context.Background(), m.Sigma(), linear.PsiFunc(m.Psi), 5, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	trueA, trueLambda := report.CanonicalDAG(m)
	a, lambda := report.AlignDAG(trueA, d, d.Lambda)

	// Exact moments: the distance is at rounding level, so it is printed
	// as a comparison to keep the output the same on every platform.
	ma := report.Compare(trueA, a, 0.1)
	fmt.Printf("A: dist < 1e-12: %v, precision %.2f, recall %.2f\n", ma.Dist < 1e-12, ma.Prec, ma.Rec)
	fmt.Printf("A, entries above %.1f of their column: precision %.2f, recall %.2f\n", ma.Tau, ma.PrecT, ma.RecT)
	var maxErr float64
	for i := 0; i < 5; i++ {
		for j := 0; j < 5; j++ {
			maxErr = math.Max(maxErr, math.Abs(lambda.At(i, j)-trueLambda.At(i, j)))
		}
	}
	fmt.Printf("Lambda: dist < 1e-12: %v, max error < 1e-8: %v\n", report.Compare(trueLambda, lambda, 0.1).Dist < 1e-12, maxErr < 1e-8)

	xa, ya := report.Entries(trueA, a)
	xl, yl := report.Entries(trueLambda, lambda)
	var svg bytes.Buffer
	err = report.ScatterSVG(&svg, "exact moments", 2, []report.Panel{
		{Title: "A", XLabel: "true", YLabel: "learned", X: xa, Y: ya},
		{Title: "Lambda", XLabel: "true", YLabel: "learned", X: xl, Y: yl},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := svg.String()
	fmt.Println("svg:", strings.HasPrefix(s, "<svg"), strings.HasSuffix(s, "</svg>\n"))
	fmt.Println("panel titles:", strings.Contains(s, ">A</text>"), strings.Contains(s, ">Lambda</text>"))
	fmt.Println("points:", strings.Count(s, "<circle"))
	// Output:
	// expansion: true
	// A: dist < 1e-12: true, precision 1.00, recall 1.00
	// A, entries above 0.1 of their column: precision 1.00, recall 0.83
	// Lambda: dist < 1e-12: true, max error < 1e-8: true
	// svg: true true
	// panel titles: true true
	// points: 175
}
