package mat

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestCheckMemory(t *testing.T) {
	if err := CheckMemory("x", DefaultMaxMemory, 0); err != nil {
		t.Errorf("need = default limit: %v", err)
	}
	err := CheckMemory("the moments of 12000 variables", 1_152_000_000, 1<<30)
	var me *MemoryError
	if !errors.As(err, &me) || !errors.Is(err, ErrTooLarge) {
		t.Fatalf("want a *MemoryError matching ErrTooLarge, got %v", err)
	}
	if me.Need != 1_152_000_000 || me.Limit != 1<<30 {
		t.Errorf("Need %d, Limit %d", me.Need, me.Limit)
	}
	want := "the moments of 12000 variables need 1.15 GB (1152000000 bytes), over the memory limit of 1.07 GB"
	if err.Error() != want {
		t.Errorf("message\n%s\nwant\n%s", err, want)
	}
	if err := CheckMemory("x", math.MaxInt64-1, -1); err != nil {
		t.Errorf("negative MaxMemory is no limit: %v", err)
	}
	err = CheckMemory("the moments", math.MaxInt64, 0)
	if err == nil || !strings.Contains(err.Error(), "overflow") {
		t.Errorf("saturated need: %v", err)
	}
}

func TestFormatBytes(t *testing.T) {
	for _, c := range []struct {
		b    int64
		want string
	}{
		{0, "0 B"}, {999, "999 B"}, {1000, "1 kB"}, {1_200_000_000, "1.2 GB"},
		{8 << 30, "8.59 GB"}, {6_500_000_000_000, "6.5 TB"}, {999_600_000, "1 GB"},
		{math.MaxInt64, "9.22 EB"},
	} {
		if got := FormatBytes(c.b); got != c.want {
			t.Errorf("FormatBytes(%d) = %q, want %q", c.b, got, c.want)
		}
	}
}
