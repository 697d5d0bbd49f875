// Package optcheck checks the values of option fields, so that a NaN,
// an infinity or a value out of the range that makes sense is an error
// that names the option and the value, rather than a silently wrong
// result. Each package wraps its own ErrBadOption sentinel.
package optcheck

import (
	"fmt"
	"math"
)

// Float returns nil if v is finite and lo <= v <= hi (lo or hi may be
// infinite, for no bound), otherwise an error wrapping sentinel that
// names the option.
func Float(sentinel error, name string, v, lo, hi float64) error {
	if !math.IsNaN(v) && !math.IsInf(v, 0) && v >= lo && v <= hi {
		return nil
	}
	return fmt.Errorf("%w: %s = %v, want a finite number %s", sentinel, name, v, rangeText(lo, hi))
}

// Int returns nil if lo <= v <= hi, otherwise an error wrapping sentinel
// that names the option.
func Int(sentinel error, name string, v, lo, hi int) error {
	if v >= lo && v <= hi {
		return nil
	}
	if hi == math.MaxInt {
		return fmt.Errorf("%w: %s = %d, want an integer >= %d", sentinel, name, v, lo)
	}
	return fmt.Errorf("%w: %s = %d, want an integer between %d and %d", sentinel, name, v, lo, hi)
}

// Less returns nil if v is finite and lo <= v < hi, otherwise an error
// wrapping sentinel that names the option.
func Less(sentinel error, name string, v, lo, hi float64) error {
	if !math.IsNaN(v) && !math.IsInf(v, 0) && v >= lo && v < hi {
		return nil
	}
	low := fmt.Sprintf("%v <= ", lo)
	if math.IsInf(lo, -1) {
		low = ""
	}
	return fmt.Errorf("%w: %s = %v, want a finite number with %sx < %v", sentinel, name, v, low, hi)
}

// First returns the first non-nil error, or nil.
func First(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func rangeText(lo, hi float64) string {
	switch {
	case math.IsInf(lo, -1) && math.IsInf(hi, 1):
		return "(any finite value)"
	case math.IsInf(hi, 1):
		return fmt.Sprintf(">= %v", lo)
	case math.IsInf(lo, -1):
		return fmt.Sprintf("<= %v", hi)
	}
	return fmt.Sprintf("between %v and %v", lo, hi)
}
