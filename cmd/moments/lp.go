package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/moments-go/moments/simplex"
)

const lpUsage = `usage: moments lp [flags] FILE.mps

Solves the linear program of an MPS file (fixed or free format, found
out from the file; it may be gzip-compressed) with the simplex method of
the library and prints, as glpsol does, the problem's size, the status,
the objective (with the objective row's constant, if any), the simplex
iterations, what the presolve did and the time of the solve. -json writes the primal and dual
solution: each column's value and reduced cost, each row's activity and
dual value (signs as for a minimisation: a row at its lower limit has a
dual >= 0; they flip when the file maximises).

The exit status is 0 when the solve ends with an answer (optimal,
infeasible or unbounded: the status line says which) and 1 when it
stops without one (iteration or time limit, numerical trouble).
`

// lpFlags are the flags of the lp subcommand.
type lpFlags struct {
	fs        *cmdFlags
	method    *string
	maxIter   *int
	timeLimit *time.Duration
	json      *string
	noPre     *bool
	maxMem    *int64
}

func parseLPFlags(args []string, stdout io.Writer) (*lpFlags, error) {
	fs := newFlags("lp", lpUsage)
	f := &lpFlags{fs: fs,
		method:    fs.String("method", "dual", "simplex method: dual or primal"),
		maxIter:   fs.Int("max-iter", 0, "iteration limit, >= 0 (0: the solver's default, 50000 + 20 (rows + columns))"),
		timeLimit: fs.Duration("time-limit", 0, "stop the solve after this long, such as 30s (0: no limit)"),
		json:      fs.String("json", "", "also write the primal and dual solution as JSON to this file"),
		noPre:     fs.Bool("no-presolve", false, "solve without the presolve"),
		maxMem:    maxMemoryFlag(fs.FlagSet),
	}
	if err := fs.parse(args, stdout, "FILE.mps"); err != nil {
		return nil, err
	}
	if err := fs.check(atLeast("max-iter", *f.maxIter, 0)); err != nil {
		return nil, err
	}
	if *f.timeLimit < 0 {
		return nil, fs.usagef("-time-limit %v: must not be negative", *f.timeLimit)
	}
	if *f.method != "dual" && *f.method != "primal" {
		return nil, fs.usagef("-method %q: want dual or primal", *f.method)
	}
	return f, nil
}

// runLP is the lp subcommand: read the MPS file, solve, print the
// outcome and write the solution.
func runLP(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseLPFlags(args, stdout)
	if err != nil {
		return err
	}
	path := f.fs.Arg(0)
	out, err := createOutput("json", *f.json)
	if err != nil {
		return err
	}
	defer out.discard()
	p, err := readLP(ctx, path, *f.maxMem)
	if err != nil {
		return err
	}
	nnz := len(p.A.RowIndex)
	fmt.Fprintf(stdout, "problem %s: %d rows, %d columns, %d nonzeros\n", p.Name, p.NumRows(), p.NumCols(), nnz)
	opts := &simplex.Options{MaxIter: *f.maxIter, NoPresolve: *f.noPre}
	if *f.method == "primal" {
		opts.Method = simplex.Primal
	}
	sctx := ctx
	if *f.timeLimit > 0 {
		var cancel context.CancelFunc
		sctx, cancel = context.WithTimeout(ctx, *f.timeLimit)
		defer cancel()
	}
	start := time.Now()
	res, serr := simplex.Solve(sctx, p, opts)
	el := time.Since(start)
	if res == nil {
		return inFile(path, serr)
	}
	status := lpStatus(res.Status, sctx)
	fmt.Fprintf(stdout, "status:     %s\n", status)
	if res.Status == simplex.Optimal {
		fmt.Fprintf(stdout, "objective:  %.12g\n", res.Objective+res.Offset)
		if res.Offset != 0 {
			fmt.Fprintf(stdout, "            (c^T x %.12g, constant %.12g)\n", res.Objective, res.Offset)
		}
	}
	fmt.Fprintf(stdout, "iterations: %d (%s)\n", res.Iterations, opts.Method)
	for _, e := range res.Events {
		if strings.HasPrefix(e, "presolve: ") {
			fmt.Fprintln(stdout, e)
		}
	}
	fmt.Fprintf(stdout, "time:       %.3f s\n", el.Seconds())
	if ctx.Err() != nil {
		return ctx.Err()
	}
	switch res.Status {
	case simplex.Optimal, simplex.Infeasible, simplex.Unbounded:
	case simplex.Canceled:
		return fmt.Errorf("%s: time limit %v reached", path, *f.timeLimit)
	default:
		return inFile(path, serr)
	}
	if out != nil {
		if err := out.commit(func(w io.Writer) error { return writeLPJSON(w, p, res, status, el) }); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "solution written to %s\n", *f.json)
	}
	return nil
}

// readLP reads the MPS file at path (gzip or not), refusing one that
// needs more than maxMemory bytes (simplex.MPSOptions.MaxMemory) as it
// reads.
func readLP(ctx context.Context, path string, maxMemory int64) (*simplex.Problem, error) {
	r, err := openInput(ctx, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	p, err := simplex.ReadMPS(r, &simplex.MPSOptions{MaxMemory: maxMemory})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, inFile(path, err)
	}
	return p, nil
}

// lpStatus names a status for the output ("OPTIMAL", "INFEASIBLE",
// "TIME LIMIT"...).
func lpStatus(st simplex.Status, ctx context.Context) string {
	switch st {
	case simplex.Optimal:
		return "OPTIMAL"
	case simplex.Infeasible:
		return "INFEASIBLE"
	case simplex.Unbounded:
		return "UNBOUNDED"
	case simplex.IterationLimit:
		return "ITERATION LIMIT"
	case simplex.Numerical:
		return "NUMERICAL TROUBLE"
	case simplex.Canceled:
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return "TIME LIMIT"
		}
		return "INTERRUPTED"
	}
	return st.String()
}

// lpJSON is the file that -json writes.
type lpJSON struct {
	Name       string     `json:"name"`
	Status     string     `json:"status"`
	Objective  *float64   `json:"objective"` // c^T x + constant; null unless optimal
	Constant   float64    `json:"constant"`
	Iterations int        `json:"iterations"`
	Seconds    float64    `json:"seconds"`
	Columns    []lpColumn `json:"columns"`
	Rows       []lpRow    `json:"rows"`
}

type lpColumn struct {
	Name        string  `json:"name"`
	Value       float64 `json:"value"`
	ReducedCost float64 `json:"reduced_cost"`
}

type lpRow struct {
	Name     string  `json:"name"`
	Activity float64 `json:"activity"`
	Dual     float64 `json:"dual"`
}

// writeLPJSON writes the solution of p (the last basis' values when the
// status is not optimal).
func writeLPJSON(w io.Writer, p *simplex.Problem, res *simplex.Result, status string, el time.Duration) error {
	j := lpJSON{Name: p.Name, Status: status, Constant: res.Offset, Iterations: res.Iterations, Seconds: el.Seconds()}
	if res.Status == simplex.Optimal {
		v := res.Objective + res.Offset
		j.Objective = &v
	}
	name := func(names []string, prefix string, i int) string {
		if i < len(names) {
			return names[i]
		}
		return fmt.Sprintf("%s%d", prefix, i+1)
	}
	j.Columns = make([]lpColumn, p.NumCols())
	for i := range j.Columns {
		j.Columns[i] = lpColumn{Name: name(p.ColNames, "x", i), Value: res.X[i], ReducedCost: res.ReducedCosts[i]}
	}
	j.Rows = make([]lpRow, p.NumRows())
	for i := range j.Rows {
		j.Rows[i] = lpRow{Name: name(p.RowNames, "r", i), Activity: res.RowActivity[i], Dual: res.RowDuals[i]}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(j)
}
