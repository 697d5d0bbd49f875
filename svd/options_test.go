package svd

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/moments-go/moments/mat"
)

// TestBadOptions: every senseless value of the Jacobi options (a NaN
// tolerance, say, which would stop Factorize after one sweep with values
// 28% off) must be an error naming the option and the value.
func TestBadOptions(t *testing.T) {
	a := mat.FromRows([][]float64{{4, 1, 2}, {1, 3, 0}, {2, 0, 5}})
	for _, c := range []struct {
		opts Options
		want string
	}{
		{Options{Tol: math.NaN()}, "Options.Tol = NaN"},
		{Options{Tol: math.Inf(1)}, "Options.Tol = +Inf"},
		{Options{Tol: -1e-3}, "Options.Tol = -0.001"},
		{Options{Tol: 1}, "Options.Tol = 1"},
		{Options{MaxSweeps: -2}, "Options.MaxSweeps = -2"},
		{Options{Want: 9}, "Options.Want = 9"},
	} {
		_, err := Factorize(a, &c.opts)
		if !errors.Is(err, ErrBadOption) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want ErrBadOption naming %q", c.opts, err, c.want)
		}
	}
	for _, c := range []struct {
		opts EigOptions
		want string
	}{
		{EigOptions{Tol: math.NaN()}, "EigOptions.Tol = NaN"},
		{EigOptions{Tol: math.Inf(-1)}, "EigOptions.Tol = -Inf"},
		{EigOptions{MaxSweeps: -1}, "EigOptions.MaxSweeps = -1"},
	} {
		_, err := EigSym(a, &c.opts)
		if !errors.Is(err, ErrBadOption) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want ErrBadOption naming %q", c.opts, err, c.want)
		}
	}
	// Sensible non-default values still work.
	if _, err := Factorize(a, &Options{Tol: 1e-3, MaxSweeps: 5}); err != nil {
		t.Fatal(err)
	}
}
