package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/moments-go/moments/internal/size"
	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
)

const infoUsage = `usage: moments info

Prints what the kernels found on this machine: the CPU, its caches, the
implementations that can run (and the active one) and the GEMM blocking.
`

const demoUsage = `usage: moments demo [flags]

A self-check and speed demo of the numerics: multiplies two random N x N
matrices on every kernels implementation, checks each product against a reference
with the scaled residual LAPACK uses, and prints the speed on one core
and on all.
`

// maxDemoN bounds demo -n: the reference product alone takes n^3
// multiply-adds in the generic implementation, and the four n x n
// matrices take 32 n^2 bytes (8 GiB at the bound).
const maxDemoN = 1 << 14

func runInfo(_ context.Context, args []string, stdout, _ io.Writer) error {
	fs := newFlags("info", infoUsage)
	if err := fs.parse(args, stdout); err != nil {
		return err
	}
	printInfo(stdout)
	return nil
}

func printInfo(stdout io.Writer) {
	i := kernels.Info()
	fmt.Fprintf(stdout, "cpu       %s (%s/%s, %d physical cores, GOMAXPROCS %d)\n", i.Brand, runtime.GOOS, runtime.GOARCH, i.Cores, runtime.GOMAXPROCS(0))
	fmt.Fprintf(stdout, "caches    L1d %s, L2 %s, L3 %s\n", kib(i.L1D), kib(i.L2), kib(i.L3))
	fmt.Fprintf(stdout, "avx-512   %v\n", i.AVX512)
	fmt.Fprintf(stdout, "impls     %v (active: %v; set MOMENTS_KERNELS to force one)\n", i.Implementations, i.Active)
	b := i.Blocking
	fmt.Fprintf(stdout, "gemm      micro-tile %dx%d, kc %d, mc %d, nc %d\n", b.MR, b.NR, b.KC, b.MC, b.NC)
}

func kib(bytes int) string {
	if bytes <= 0 {
		return "unknown (defaults used)"
	}
	return fmt.Sprintf("%d KiB", bytes>>10)
}

// runDemo multiplies random matrices on every kernels implementation,
// checks each product against an exact-enough reference through the
// scaled residual LAPACK uses, and reports the speed.
func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("demo", demoUsage)
	n := fs.Int("n", 512, fmt.Sprintf("matrix size (1 to %d)", maxDemoN))
	seed := fs.Uint64("seed", 1, "random seed")
	maxMem := maxMemoryFlag(fs.FlagSet)
	if err := fs.parse(args, stdout); err != nil {
		return err
	}
	if err := fs.check(intIn("n", *n, 1, maxDemoN)); err != nil {
		return err
	}
	// A, B, the reference, the bound with its two |A| |B| operands, C.
	if err := mat.CheckMemory(fmt.Sprintf("the six %d x %d matrices of -n %d", *n, *n, *n), size.Float64s(6, *n, *n), *maxMem); err != nil {
		return err
	}
	printInfo(stdout)
	r := rand.New(rand.NewPCG(*seed, 0))
	a, b := randMatrix(r, *n), randMatrix(r, *n)

	// Reference: C = A B one dot product at a time in the generic
	// implementation, with the elementwise rounding bound sum_p |a_ip||b_pj|.
	saved := kernels.Info().Active
	defer kernels.Use(saved)
	if err := kernels.Use("generic"); err != nil {
		return err
	}
	var ref mat.Dense
	ref.Mul(a, b)
	var bound mat.Dense
	bound.Mul(absMatrix(a), absMatrix(b))

	fmt.Fprintf(stdout, "\nC = A B with A, B %dx%d standard normal (seed %d):\n", *n, *n, *seed)
	fmt.Fprintf(stdout, "%-8s %12s %12s %14s\n", "impl", "1 core", fmt.Sprintf("%d cores", runtime.GOMAXPROCS(0)), "residual")
	flops := 2 * math.Pow(float64(*n), 3)
	for _, p := range kernels.Info().Implementations {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := kernels.Use(p); err != nil {
			return err
		}
		var c mat.Dense
		one := gflops(ctx, flops, func() { c.Mul(a, b) }, 1)
		all := gflops(ctx, flops, func() { c.Mul(a, b) }, 0)
		if err := ctx.Err(); err != nil {
			return err
		}
		// max_ij |C - ref|_ij / (n eps sum_p |a_ip||b_pj|): LAPACK-style,
		// below 1 means within the classical bound.
		worst := 0.0
		for i := 0; i < *n; i++ {
			for j := 0; j < *n; j++ {
				d := math.Abs(c.At(i, j)-ref.At(i, j)) / (float64(*n) * 0x1p-53 * bound.At(i, j))
				worst = math.Max(worst, d)
			}
		}
		fmt.Fprintf(stdout, "%-8v %8.1f GF/s %8.1f GF/s %14.3f\n", p, one, all, worst)
		if !(worst < 2) {
			return fmt.Errorf("implementation %v is off the reference by %.3g times the rounding bound", p, worst)
		}
	}
	fmt.Fprintln(stdout, "\nresidual: max |C - C_ref| / (n u sum_p |a_ip||b_pj|); under 2 passes.")
	return nil
}

func randMatrix(r *rand.Rand, n int) *mat.Dense {
	d := make([]float64, n*n)
	for i := range d {
		d[i] = r.NormFloat64()
	}
	return mat.New(n, n, d)
}

func absMatrix(a *mat.Dense) *mat.Dense {
	r, c := a.Dims()
	m := mat.Zeros(r, c)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m.Set(i, j, math.Abs(a.At(i, j)))
		}
	}
	return m
}

// gflops runs f with the given worker limit (0: all) for about 300ms, or
// until ctx is done, and returns the rate.
func gflops(ctx context.Context, flops float64, f func(), workers int) float64 {
	defer kernels.SetMaxWorkers(kernels.SetMaxWorkers(workers))
	f()
	reps, start := 0, time.Now()
	for time.Since(start) < 300*time.Millisecond && ctx.Err() == nil {
		f()
		reps++
	}
	return flops * float64(reps) / time.Since(start).Seconds() / 1e9
}
