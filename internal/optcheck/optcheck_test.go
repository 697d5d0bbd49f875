package optcheck

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestChecks(t *testing.T) {
	bad := errors.New("p: bad option")
	inf := math.Inf(1)
	for _, c := range []struct {
		err  error
		want string // "" for no error
	}{
		{Float(bad, "Options.Tol", 0.5, 0, inf), ""},
		{Float(bad, "Options.Tol", math.NaN(), 0, inf), "Options.Tol = NaN, want a finite number >= 0"},
		{Float(bad, "Options.Tol", inf, 0, inf), "Options.Tol = +Inf"},
		{Float(bad, "Options.Tol", -1, 0, 1), "Options.Tol = -1, want a finite number between 0 and 1"},
		{Float(bad, "X", -1, -inf, inf), ""},
		{Less(bad, "S", 1, -inf, 1), "S = 1, want a finite number with x < 1"},
		{Less(bad, "S", 0.5, 0, 1), ""},
		{Int(bad, "Options.MaxSweeps", -1, 0, math.MaxInt), "Options.MaxSweeps = -1, want an integer >= 0"},
		{Int(bad, "Options.Want", 7, 0, 3), "Options.Want = 7, want an integer between 0 and 3"},
		{First(nil, Int(bad, "A", 1, 0, 0), Int(bad, "B", 1, 0, 0)), "A = 1"},
	} {
		if c.want == "" {
			if c.err != nil {
				t.Errorf("unexpected error %v", c.err)
			}
			continue
		}
		if !errors.Is(c.err, bad) || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("error %v, want one wrapping %v and containing %q", c.err, bad, c.want)
		}
	}
}
