package svd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/moments-go/moments/internal/testutil"
	"github.com/moments-go/moments/mat"
)

// TestSortedOrder checks sortedOrder, by comparisons (short inputs) and
// by radixOrder (from radixMin on), against a stable sort by decreasing
// value: on half-normal values, on few distinct values (ties, which must
// stay in index order), on values over 600 binades with zeros, and on
// sorted input (nil).
func TestSortedOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 10, radixMin - 1, radixMin, 1000} {
		for kind := 0; kind < 4; kind++ {
			big := make([]float64, n)
			for i := range big {
				switch kind {
				case 0:
					big[i] = math.Abs(r.NormFloat64())
				case 1:
					big[i] = float64(r.IntN(5))
				case 2:
					if r.IntN(10) > 0 {
						big[i] = math.Ldexp(r.Float64(), r.IntN(600)-300)
					}
				case 3:
					big[i] = float64(n - i/2)
				}
			}
			want := make([]int, n)
			for i := range want {
				want[i] = i
			}
			slices.SortStableFunc(want, func(a, b int) int {
				switch {
				case big[a] > big[b]:
					return -1
				case big[a] < big[b]:
					return 1
				}
				return 0
			})
			got := sortedOrder(big)
			if got == nil {
				if !slices.IsSorted(want) {
					t.Fatalf("n=%d kind=%d: nil (sorted) for unsorted input", n, kind)
				}
				continue
			}
			if !slices.Equal(got, want) {
				t.Fatalf("n=%d kind=%d: order %v, want %v", n, kind, got[:min(n, 10)], want[:min(n, 10)])
			}
		}
	}
}

// TestPermuteRows checks permuteRows (row i to row perm[i]) and
// gatherRowsT (column i of the result is row perm[i]) on random
// permutations against direct copies: the results must be equal.
func TestPermuteRows(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, s := range [][2]int{{1, 1}, {7, 3}, {64, 5}, {1000, 50}, {37, 130}} {
		m, n := s[0], s[1]
		a := mat.New(m, n, testutil.Normals(r, m*n))
		perm := r.Perm(m)
		b := a.Clone()
		permuteRows(b, perm)
		zd := make([]float64, m*n)
		gatherRowsT(zd, a, perm)
		for i := 0; i < m; i++ {
			if !slices.Equal(b.RawRow(perm[i]), a.RawRow(i)) {
				t.Fatalf("%dx%d: permuteRows: row %d did not go to %d", m, n, i, perm[i])
			}
			for j := 0; j < n; j++ {
				if zd[j*m+i] != a.At(perm[i], j) {
					t.Fatalf("%dx%d: gatherRowsT: Z[%d][%d] = %v, want A[%d][%d] = %v", m, n, j, i, zd[j*m+i], perm[i], j, a.At(perm[i], j))
				}
			}
		}
	}
}

// TestFactorizeConcurrent checks that calls of Factorize on several
// goroutines, which share the pooled scratch buffers (scratchPool), give
// the bits of the same calls made one at a time, on both paths and both
// orientations.
func TestFactorizeConcurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	shapes := [][2]int{{400, 30}, {30, 400}, {100, 100}, {70, 200}, {200, 70}, {40, 40}}
	as := make([]*mat.Dense, len(shapes))
	want := make([]*SVD, len(shapes))
	for i, s := range shapes {
		as[i] = mat.New(s[0], s[1], testutil.Normals(r, s[0]*s[1]))
		var err error
		if want[i], err = Factorize(as[i], nil); err != nil {
			t.Fatal(err)
		}
	}
	same := func(a, b *SVD) bool {
		return slices.Equal(a.S, b.S) && slices.Equal(a.U.RawData(), b.U.RawData()) && slices.Equal(a.V.RawData(), b.V.RawData())
	}
	const workers = 6
	errs := make(chan string, workers*len(shapes)*2)
	done := make(chan struct{})
	for w := 0; w < workers; w++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for rep := 0; rep < 2; rep++ {
				for k := range shapes {
					i := (k + w + rep) % len(shapes)
					got, err := Factorize(as[i], nil)
					if err != nil || !same(got, want[i]) {
						errs <- fmt.Sprintf("worker %d, %dx%d: err %v or different bits", w, shapes[i][0], shapes[i][1], err)
					}
				}
			}
		}()
	}
	for w := 0; w < workers; w++ {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
