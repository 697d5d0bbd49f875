package report

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strings"
)

// Panel is one scatter plot: the points (X[i], Y[i]).
type Panel struct {
	Title, XLabel, YLabel string
	X, Y                  []float64
}

// ScatterSVG writes the panels as one SVG image, cols panels a row, each
// with its axes, ticks, the diagonal y = x and the points (true entries
// on the x axis, estimates on the y axis, the figures of the linear-BN
// papers). Points with both coordinates exactly zero are drawn too; points
// with a NaN or infinite coordinate are left out. The
// SVG is written by hand: no plotting dependency.
func ScatterSVG(w io.Writer, title string, cols int, panels []Panel) error {
	const (
		pw, ph   = 300.0, 300.0 // panel size
		margin   = 50.0
		top      = 40.0
		innerPad = 8.0
	)
	cols = max(1, min(cols, len(panels)))
	rows := (len(panels) + cols - 1) / cols
	width := float64(cols)*(pw+margin) + margin
	height := top + float64(rows)*(ph+margin+20) + 10
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="11">`+"\n", width, height, width, height)
	fmt.Fprintf(bw, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(bw, `<text x="%.1f" y="22" text-anchor="middle" font-size="15">%s</text>`+"\n", width/2, esc(title))
	for p, pan := range panels {
		x0 := margin + float64(p%cols)*(pw+margin)
		y0 := top + float64(p/cols)*(ph+margin+20) + 10
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := range pan.X {
			for _, v := range []float64{pan.X[i], pan.Y[i]} {
				if finite(v) {
					lo, hi = math.Min(lo, v), math.Max(hi, v)
				}
			}
		}
		if math.IsInf(lo, 1) { // no finite point
			lo, hi = -1, 1
		}
		// A range too narrow for its magnitude (one value, or values an
		// ulp apart) is widened around its centre: otherwise the points
		// fall outside the frame, or the tick step is lost in lo and the
		// tick loop below never ends.
		if hi-lo <= 1e-6*math.Max(math.Abs(lo), math.Abs(hi)) {
			c := (lo + hi) / 2
			w := math.Abs(c) / 10
			if w == 0 {
				w = 1
			}
			lo, hi = c-w, c+w
		}
		step := niceStep((hi - lo) / 5)
		lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
		sx := func(v float64) float64 { return x0 + innerPad + (v-lo)/(hi-lo)*(pw-2*innerPad) }
		sy := func(v float64) float64 { return y0 + ph - innerPad - (v-lo)/(hi-lo)*(ph-2*innerPad) }
		fmt.Fprintf(bw, `<g><rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="black"/>`+"\n", x0, y0, pw, ph)
		for v := lo; v <= hi+step/2; v += step {
			fmt.Fprintf(bw, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`, sx(v), y0, sx(v), y0+ph)
			fmt.Fprintf(bw, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`, x0, sy(v), x0+pw, sy(v))
			fmt.Fprintf(bw, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, sx(v), y0+ph+14, tick(v))
			fmt.Fprintf(bw, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n", x0-4, sy(v)+4, tick(v))
		}
		fmt.Fprintf(bw, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#c33" stroke-dasharray="4 3"/>`+"\n", sx(lo), sy(lo), sx(hi), sy(hi))
		for i := range pan.X {
			if !finite(pan.X[i]) || !finite(pan.Y[i]) {
				continue
			}
			fmt.Fprintf(bw, `<circle cx="%.1f" cy="%.1f" r="1.8" fill="#1f5fbf" fill-opacity="0.6"/>`, sx(pan.X[i]), sy(pan.Y[i]))
		}
		fmt.Fprintf(bw, "\n"+`<text x="%.1f" y="%.1f" text-anchor="middle" font-size="13">%s</text>`+"\n", x0+pw/2, y0-6, esc(pan.Title))
		fmt.Fprintf(bw, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", x0+pw/2, y0+ph+30, esc(pan.XLabel))
		fmt.Fprintf(bw, `<text x="%.1f" y="%.1f" text-anchor="middle" transform="rotate(-90 %.1f %.1f)">%s</text></g>`+"\n", x0-34, y0+ph/2, x0-34, y0+ph/2, esc(pan.YLabel))
	}
	fmt.Fprintln(bw, "</svg>")
	return bw.Flush()
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// niceStep rounds s up to 1, 2 or 5 times a power of ten.
func niceStep(s float64) float64 {
	if !(s > 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(s)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= s {
			return m * p
		}
	}
	return 10 * p
}

func tick(v float64) string {
	if math.Abs(v) < 1e-12 {
		return "0"
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", v), "0"), ".")
}

func esc(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// Entries returns the pairs (truth[i][j], est[i][j]) of two matrices of
// the same shape, for a scatter plot.
func Entries(truth, est interface {
	At(i, j int) float64
	Dims() (int, int)
}) (x, y []float64) {
	r, c := truth.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			x = append(x, truth.At(i, j))
			y = append(y, est.At(i, j))
		}
	}
	return x, y
}
