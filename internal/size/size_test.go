package size

import (
	"math"
	"testing"
)

func TestMul(t *testing.T) {
	for _, c := range []struct {
		in   []int
		want int64
	}{
		{nil, 1},
		{[]int{3, 4}, 12},
		{[]int{0, math.MaxInt64}, 0},
		{[]int{1 << 32, 1 << 31}, 1<<63 - 1},
		{[]int{1 << 31, 1 << 31}, 1 << 62},
		{[]int{3, 4611686018427387904}, Max}, // the 3*k of issue 14
		{[]int{-1, 5}, Max},
	} {
		if got := Mul(c.in...); got != c.want {
			t.Errorf("Mul(%v) = %d, want %d", c.in, got, c.want)
		}
	}
}

func TestAdd(t *testing.T) {
	if got := Add(1, 2, 3); got != 6 {
		t.Errorf("Add(1, 2, 3) = %d", got)
	}
	if got := Add(Max-1, 2); got != Max {
		t.Errorf("Add(Max-1, 2) = %d, want Max", got)
	}
	if got := Add(5, -1); got != Max {
		t.Errorf("Add(5, -1) = %d, want Max", got)
	}
	if got := Float64s(1000, 1000); got != 8e6 {
		t.Errorf("Float64s(1000, 1000) = %d", got)
	}
	if got := Float64s(1<<31, 1<<31); got != Max {
		t.Errorf("Float64s(2^31, 2^31) = %d, want Max", got)
	}
}

func TestPacked3(t *testing.T) {
	for k := 0; k < 200; k++ {
		if got, want := Packed3(k), int64(k*(k+1)*(k+2)/6); got != want {
			t.Fatalf("Packed3(%d) = %d, want %d", k, got, want)
		}
	}
	if got := Packed3(math.MaxInt64); got != Max {
		t.Errorf("Packed3(MaxInt64) = %d, want Max", got)
	}
	if got := Packed3(1 << 40); got != Max {
		t.Errorf("Packed3(2^40) = %d, want Max", got)
	}
}
