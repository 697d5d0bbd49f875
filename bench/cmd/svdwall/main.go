// Command svdwall times svd.Factorize (thin U and V, the default method)
// in wall time on one and on two cores, single calls in alternation, and
// prints the fastest and the median of each and the two-core speed-up
// (issue 17: at least 1.7x from 500 x 500 up). On a shared machine a
// second core is the first thing other tenants take: the fastest of many
// single calls estimates what the code can do, the median what this
// machine gave, and bench/svd_anchors.sh's table (medians of averaged
// calls, the garbage collector's work included) lies near the second.
//
//	go run ./cmd/svdwall [-shapes 500,1000,2000x1000,1000x2000] [-rounds 15]
package main

import (
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/svd"
)

func main() {
	shapes := flag.String("shapes", "500,1000,2000x1000,1000x2000", "shapes, n (square) or MxN")
	rounds := flag.Int("rounds", 15, "timed calls on each number of cores")
	flag.Parse()
	fmt.Println("shape      1 core min  median   2 cores min  median   speed-up (min, median)")
	for _, sh := range strings.Split(*shapes, ",") {
		m, n, err := parseShape(sh)
		if err != nil {
			log.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(m), uint64(n)))
		a := mat.Zeros(m, n)
		for i := 0; i < m; i++ {
			row := a.RawRow(i)
			for j := range row {
				row[j] = r.NormFloat64()
			}
		}
		call := func(cores int) float64 {
			runtime.GOMAXPROCS(cores)
			t := time.Now()
			if _, err := svd.Factorize(a, nil); err != nil {
				log.Fatal(err)
			}
			return time.Since(t).Seconds() * 1e3
		}
		call(1)
		call(2) // warm: the scratch pool and the heap
		var one, two []float64
		for i := 0; i < *rounds; i++ {
			one = append(one, call(1))
			two = append(two, call(2))
		}
		slices.Sort(one)
		slices.Sort(two)
		med := func(s []float64) float64 { return s[len(s)/2] }
		fmt.Printf("%-10s %10.2f %7.2f %13.2f %7.2f   %.2fx, %.2fx\n", sh, one[0], med(one), two[0], med(two), one[0]/two[0], med(one)/med(two))
	}
}

func parseShape(s string) (m, n int, err error) {
	ms, ns, wide := strings.Cut(s, "x")
	if m, err = strconv.Atoi(ms); err != nil || m < 1 {
		return 0, 0, fmt.Errorf("svdwall: bad shape %q", s)
	}
	n = m
	if wide {
		if n, err = strconv.Atoi(ns); err != nil || n < 1 {
			return 0, 0, fmt.Errorf("svdwall: bad shape %q", s)
		}
	}
	return m, n, nil
}
