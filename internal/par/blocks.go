package par

import "fmt"

// blockBytes is the most bytes of float64 rows that BlockRows lets a
// pass load at once.
const blockBytes = 1 << 20

// BlockRows returns the number of rows of d float64 each (d > 0) that a
// pass over samples loads at once: about 1 MiB of them, at least 256 and
// at most limit (limit > 0). A chunk of Reduce may hold far more items
// than that (chunks grow with the data, at most about 256 of them), so a
// pass that loads its chunk in blocks of BlockRows rows (see Blocks)
// holds memory in proportion to the rows' width, not to the data. It
// depends on d and limit alone, so a pass that uses it keeps its bits
// for any number of workers.
func BlockRows(d, limit int) int {
	return max(1, min(limit, max(256, blockBytes/(8*max(d, 1)))))
}

// Blocks calls f on the consecutive ranges of at most rows items that
// cover [lo, hi), in order. It panics if rows < 1.
func Blocks(lo, hi, rows int, f func(lo, hi int)) {
	if rows < 1 {
		panic(fmt.Sprintf("par: Blocks: %d rows", rows))
	}
	for s := lo; s < hi; s += rows {
		f(s, min(hi, s+rows))
	}
}
