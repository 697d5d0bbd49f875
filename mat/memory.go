package mat

import (
	"errors"
	"fmt"
	"math"
)

// DefaultMaxMemory is the limit (bytes) that MaxMemory 0 stands for: 4
// GiB. It is fixed rather than read from the machine, so that a program
// behaves the same everywhere; it is far above what the papers'
// experiments need (the largest moments there take a few hundred
// megabytes), holds a dense 20 000 x 20 000 matrix with room to spare,
// and fits the memory of a laptop. Programs that know their machine set
// MaxMemory (the moments command defaults to half the physical memory,
// at most 4 GiB).
const DefaultMaxMemory int64 = 4 << 30

// ErrTooLarge is matched (errors.Is) by every *MemoryError: a job whose
// sizes would need more memory than its limit.
var ErrTooLarge = errors.New("mat: too large for the memory limit")

// MemoryError reports a job refused by the memory rule, before it
// allocated what it refuses.
type MemoryError struct {
	// What names what would be allocated, as the subject of "need":
	// "the moments of 12000 variables".
	What string
	// Need is the estimate in bytes; math.MaxInt64 when the sizes
	// overflow.
	Need int64
	// Limit is the limit in bytes that Need exceeds.
	Limit int64
}

// Error gives the need in bytes and the limit.
func (e *MemoryError) Error() string {
	if e.Need == math.MaxInt64 {
		return fmt.Sprintf("%s need more than %s (the sizes overflow), over the memory limit of %s", e.What, FormatBytes(e.Need), FormatBytes(e.Limit))
	}
	return fmt.Sprintf("%s need %s (%d bytes), over the memory limit of %s", e.What, FormatBytes(e.Need), e.Need, FormatBytes(e.Limit))
}

// Unwrap returns ErrTooLarge.
func (e *MemoryError) Unwrap() error { return ErrTooLarge }

// MemoryLimit resolves a MaxMemory option: DefaultMaxMemory for 0,
// math.MaxInt64 (no limit) for a negative value, maxMemory otherwise.
func MemoryLimit(maxMemory int64) int64 {
	switch {
	case maxMemory == 0:
		return DefaultMaxMemory
	case maxMemory < 0:
		return math.MaxInt64
	}
	return maxMemory
}

// CheckMemory returns a *MemoryError if need bytes exceed the limit that
// the MaxMemory option maxMemory stands for (see MemoryLimit), and nil
// otherwise. what is the subject of the message ("the moments of 12000
// variables").
func CheckMemory(what string, need, maxMemory int64) error {
	if limit := MemoryLimit(maxMemory); need > limit {
		return &MemoryError{What: what, Need: need, Limit: limit}
	}
	return nil
}

// FormatBytes writes a number of bytes in decimal units with three
// significant digits: "512 B", "1.2 GB" (1.2e9 bytes), "6.5 TB".
func FormatBytes(b int64) string {
	if b < 1000 {
		return fmt.Sprintf("%d B", b)
	}
	v := float64(b)
	for _, unit := range []string{"kB", "MB", "GB", "TB", "PB"} {
		v /= 1000
		if v < 999.5 {
			return fmt.Sprintf("%.3g %s", v, unit)
		}
	}
	return fmt.Sprintf("%.3g EB", v/1000)
}
