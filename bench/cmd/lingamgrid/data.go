package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/moments-go/moments/mat"
)

// noises are the noise families of the grid, each standardized to mean 0
// and variance 1 before the per-variable scale.
var noises = []string{"exp", "chi2", "uniform", "laplace"}

// family is "skewed" for the exponential and chi-square noises and
// "symmetric" for the uniform and Laplace ones.
func family(noise string) string {
	switch noise {
	case "exp", "chi2":
		return "skewed"
	}
	return "symmetric"
}

// draw returns one standardized draw of the noise family.
func draw(r *rand.Rand, noise string) float64 {
	switch noise {
	case "exp": // Exp(1) - 1: skewness 2
		return r.ExpFloat64() - 1
	case "chi2": // (chi2_1 - 1) / sqrt 2: skewness 2.83
		z := r.NormFloat64()
		return (z*z - 1) / math.Sqrt2
	case "uniform": // U(-sqrt 3, sqrt 3): excess kurtosis -1.2
		return math.Sqrt(3) * (2*r.Float64() - 1)
	case "laplace": // Laplace with b = 1/sqrt 2: excess kurtosis 3
		e := r.ExpFloat64() / math.Sqrt2
		if r.IntN(2) == 0 {
			return -e
		}
		return e
	}
	panic("lingamgrid: unknown noise " + noise)
}

// dataset names one data set of the grid; everything about it follows
// from these fields.
type dataset struct {
	Name   string `json:"name"`
	Noise  string `json:"noise"`
	P      int    `json:"p"`
	Degree int    `json:"degree"`
	N      int    `json:"n"`
	Seed   int    `json:"seed"`
	CSV    string `json:"csv"`   // samples: header x0..x{p-1}, N rows
	Truth  string `json:"truth"` // JSON {"B": p x p}
}

func newDataset(noise string, p, degree, n, seed int) dataset {
	name := fmt.Sprintf("%s-p%d-d%d-n%d-s%d", noise, p, degree, n, seed)
	return dataset{Name: name, Noise: noise, P: p, Degree: degree, N: n, Seed: seed,
		CSV: name + ".csv", Truth: name + ".truth.json"}
}

func stream(parts ...any) uint64 {
	h := fnv.New64a()
	fmt.Fprint(h, parts...)
	return h.Sum64()
}

// model draws the DAG of (p, degree, seed), shared by every noise and N:
// a random causal order; each pair of variables joined with probability
// degree/(p-1) (expected degree, in plus out: degree), weights uniform in
// +-[0.5, 2]; noise standard deviations sqrt(U[0.5, 1]). b[i][j] is the
// coefficient of x_j in the equation of x_i (lingam's adjacency_matrix_).
func model(p, degree, seed int) (b *mat.Dense, order []int, sd []float64) {
	r := rand.New(rand.NewPCG(uint64(seed), stream("dag", p, degree)))
	order = r.Perm(p)
	prob := float64(degree) / float64(p-1)
	b = mat.Zeros(p, p)
	for to := 1; to < p; to++ {
		for from := 0; from < to; from++ {
			if r.Float64() < prob {
				w := 0.5 + 1.5*r.Float64()
				if r.IntN(2) == 0 {
					w = -w
				}
				b.Set(order[to], order[from], w)
			}
		}
	}
	sd = make([]float64, p)
	for i := range sd {
		sd[i] = math.Sqrt(0.5 + 0.5*r.Float64())
	}
	return b, order, sd
}

// newRand is the stream of d's noises.
func newRand(d dataset) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(d.Seed), stream("data", d.P, d.Degree, d.Noise, d.N)))
}

// samples draws the N x p data of d.
func samples(d dataset) (b, x *mat.Dense) {
	b, order, sd := model(d.P, d.Degree, d.Seed)
	r := newRand(d)
	x = mat.Zeros(d.N, d.P)
	row := make([]float64, d.P)
	for t := 0; t < d.N; t++ {
		for _, i := range order {
			v := sd[i] * draw(r, d.Noise)
			for j := 0; j < d.P; j++ {
				if w := b.At(i, j); w != 0 {
					v += w * row[j]
				}
			}
			row[i] = v
		}
		for i, v := range row {
			x.Set(t, i, v)
		}
	}
	return b, x
}

func rows(m *mat.Dense) [][]float64 {
	r, c := m.Dims()
	out := make([][]float64, r)
	for i := range out {
		out[i] = make([]float64, c)
		for j := range out[i] {
			out[i][j] = m.At(i, j)
		}
	}
	return out
}

func fromRows(v [][]float64, p int) (*mat.Dense, error) {
	if len(v) != p {
		return nil, fmt.Errorf("%d rows, want %d", len(v), p)
	}
	m := mat.Zeros(p, p)
	for i, row := range v {
		if len(row) != p {
			return nil, fmt.Errorf("row %d has %d entries, want %d", i, len(row), p)
		}
		for j, x := range row {
			m.Set(i, j, x)
		}
	}
	return m, nil
}

// write puts d's samples (shortest round-trip decimals, so every reader
// sees the same numbers) and true adjacency in dir, unless they are there.
func write(dir string, d dataset) error {
	truth := filepath.Join(dir, d.Truth)
	if _, err := os.Stat(truth); err == nil {
		return nil // written last, so the CSV is whole
	}
	b, x := samples(d)
	f, err := os.Create(filepath.Join(dir, d.CSV))
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for j := 0; j < d.P; j++ {
		if j > 0 {
			w.WriteByte(',')
		}
		fmt.Fprintf(w, "x%d", j)
	}
	w.WriteByte('\n')
	var buf []byte
	for t := 0; t < d.N; t++ {
		for j := 0; j < d.P; j++ {
			if j > 0 {
				w.WriteByte(',')
			}
			buf = strconv.AppendFloat(buf[:0], x.At(t, j), 'g', -1, 64)
			w.Write(buf)
		}
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	js, err := json.Marshal(map[string]any{"B": rows(b)})
	if err != nil {
		return err
	}
	return os.WriteFile(truth, js, 0o644)
}

// readCSV reads d's samples back.
func readCSV(dir string, d dataset) (*mat.Dense, error) {
	f, err := os.Open(filepath.Join(dir, d.CSV))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	x := mat.Zeros(d.N, d.P)
	line := 0
	for sc.Scan() {
		line++
		if line == 1 {
			continue
		}
		t := line - 2
		if t >= d.N {
			return nil, fmt.Errorf("%s: more than %d rows", d.CSV, d.N)
		}
		fields := strings.Split(sc.Text(), ",")
		if len(fields) != d.P {
			return nil, fmt.Errorf("%s:%d: %d fields, want %d", d.CSV, line, len(fields), d.P)
		}
		for j, s := range fields {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", d.CSV, line, err)
			}
			x.Set(t, j, v)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if line-1 != d.N {
		return nil, fmt.Errorf("%s: %d rows, want %d", d.CSV, line-1, d.N)
	}
	return x, nil
}

func readTruth(dir string, d dataset) (*mat.Dense, error) {
	js, err := os.ReadFile(filepath.Join(dir, d.Truth))
	if err != nil {
		return nil, err
	}
	var t struct{ B [][]float64 }
	if err := json.Unmarshal(js, &t); err != nil {
		return nil, fmt.Errorf("%s: %w", d.Truth, err)
	}
	b, err := fromRows(t.B, d.P)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Truth, err)
	}
	return b, nil
}

// pyResult is one method's entry in NAME.lingam.json, which
// bench/lingam_grid.py writes.
type pyResult struct {
	B       [][]float64 `json:"B"`
	Order   []int       `json:"order"` // causal_order_
	Seconds float64     `json:"seconds"`
	Error   string      `json:"error"`
}

type pyFile struct {
	Lingam  string              `json:"lingam"`
	Methods map[string]pyResult `json:"methods"`
}

// readPy reads lingam's results for d; ok is false when there are none.
func readPy(dir string, d dataset) (f pyFile, ok bool, err error) {
	js, err := os.ReadFile(filepath.Join(dir, d.Name+".lingam.json"))
	if os.IsNotExist(err) {
		return f, false, nil
	}
	if err != nil {
		return f, false, err
	}
	if err := json.Unmarshal(js, &f); err != nil {
		return f, false, fmt.Errorf("%s.lingam.json: %w", d.Name, err)
	}
	return f, true, nil
}
