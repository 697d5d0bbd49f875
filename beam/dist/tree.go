package dist

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Part is what one shard contributes to a pass: integer counters (the
// numbers of documents or samples it holds), sums (Data) and, for the
// passes that need them, maxima (Max). Shard is the shard's index in the
// sorted list of shards, which fixes where the part enters the
// reduction tree.
type Part struct {
	Shard int
	Count []int64
	Max   []int64
	Data  []float64
}

// Node is a partial sum of the reduction tree: the sum of the parts of
// the shards Pos*2^Level .. (Pos+1)*2^Level - 1.
type Node struct {
	Level, Pos int
	Part       Part
}

// TreeAcc is the accumulator of TreeFn: the completed nodes whose
// siblings have not arrived yet.
type TreeAcc struct {
	Nodes []Node
}

// TreeFn is a Beam CombineFn that sums the parts of Shards shards along
// a fixed binary tree: the sum of shards [0, 2^L) and [2^L, 2^(L+1)) is
// formed once both are complete, whatever order the runner delivers
// parts and merges accumulators in. Floating-point addition of two
// numbers is commutative, so every node, and the root, is the same bits
// for any runner, bundling, worker count or retry: the result of a pass
// depends on the data and the shard boundaries alone.
type TreeFn struct {
	Shards int
}

// CreateAccumulator returns an empty accumulator.
func (f *TreeFn) CreateAccumulator() TreeAcc { return TreeAcc{} }

// AddInput adds the part of one shard.
func (f *TreeFn) AddInput(a TreeAcc, p Part) TreeAcc {
	if p.Shard < 0 || p.Shard >= f.Shards {
		panic(fmt.Sprintf("dist: part of shard %d of %d", p.Shard, f.Shards))
	}
	return f.insert(a, Node{Level: 0, Pos: p.Shard, Part: p})
}

// MergeAccumulators merges two accumulators.
func (f *TreeFn) MergeAccumulators(a, b TreeAcc) TreeAcc {
	for _, n := range b.Nodes {
		a = f.insert(a, n)
	}
	return a
}

// ExtractOutput returns the sum of all parts (the root of the tree). It
// panics if a shard is missing, which a runner never causes.
func (f *TreeFn) ExtractOutput(a TreeAcc) Part {
	if len(a.Nodes) != 1 || f.width(a.Nodes[0].Level) != 1 {
		panic(fmt.Sprintf("dist: the reduction of %d shards ended with %d partial sums", f.Shards, len(a.Nodes)))
	}
	p := a.Nodes[0].Part
	p.Shard = -1
	return p
}

// width returns the number of nodes at level l.
func (f *TreeFn) width(l int) int {
	w := f.Shards
	for range l {
		w = (w + 1) / 2
	}
	return w
}

// insert adds node n to a, combining it with its sibling, then its
// parent with the parent's sibling, and so on, while siblings are there.
func (f *TreeFn) insert(a TreeAcc, n Node) TreeAcc {
	for f.width(n.Level) > 1 {
		sib := n.Pos ^ 1
		if sib >= f.width(n.Level) {
			// The last node of an odd level has no sibling: it moves up
			// unchanged.
			n = Node{Level: n.Level + 1, Pos: n.Pos / 2, Part: n.Part}
			continue
		}
		i := -1
		for j, m := range a.Nodes {
			if m.Level == n.Level && m.Pos == sib {
				i = j
				break
			}
		}
		if i < 0 {
			break
		}
		s := a.Nodes[i]
		a.Nodes = append(a.Nodes[:i], a.Nodes[i+1:]...)
		n = Node{Level: n.Level + 1, Pos: n.Pos / 2, Part: addParts(n.Part, s.Part)}
	}
	a.Nodes = append(a.Nodes, n)
	return a
}

// addParts returns the sum of a and b: counts and data added (a missing
// slice counts as zeros), maxima taken. It does not modify its
// arguments.
func addParts(a, b Part) Part {
	return Part{Shard: -1, Count: addInts(a.Count, b.Count, false), Max: addInts(a.Max, b.Max, true), Data: addFloats(a.Data, b.Data)}
}

func addInts(a, b []int64, maximum bool) []int64 {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	if len(a) != len(b) {
		panic(fmt.Sprintf("dist: adding parts of %d and %d counters", len(a), len(b)))
	}
	out := make([]int64, len(a))
	for i := range a {
		if maximum {
			out[i] = max(a[i], b[i])
		} else {
			out[i] = a[i] + b[i]
		}
	}
	return out
}

func addFloats(a, b []float64) []float64 {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	if len(a) != len(b) {
		panic(fmt.Sprintf("dist: adding parts of %d and %d values", len(a), len(b)))
	}
	out := make([]float64, len(a))
	for i := range a {
		out[i] = a[i] + b[i]
	}
	return out
}

// encodePart returns the bytes of p, which decodePart reads back:
// little-endian lengths and values.
func encodePart(p Part) []byte {
	buf := make([]byte, 0, 8*(4+len(p.Count)+len(p.Max)+len(p.Data)))
	buf = binary.LittleEndian.AppendUint64(buf, uint64(int64(p.Shard)))
	buf = binary.LittleEndian.AppendUint64(buf, uint64(len(p.Count)))
	for _, v := range p.Count {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(v))
	}
	buf = binary.LittleEndian.AppendUint64(buf, uint64(len(p.Max)))
	for _, v := range p.Max {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(v))
	}
	buf = binary.LittleEndian.AppendUint64(buf, uint64(len(p.Data)))
	for _, v := range p.Data {
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
	}
	return buf
}

// decodePart reads the bytes of encodePart.
func decodePart(b []byte) (Part, error) {
	var p Part
	next := func() (uint64, bool) {
		if len(b) < 8 {
			return 0, false
		}
		v := binary.LittleEndian.Uint64(b)
		b = b[8:]
		return v, true
	}
	bad := fmt.Errorf("dist: a pass result is truncated or corrupt")
	s, ok := next()
	if !ok {
		return p, bad
	}
	p.Shard = int(int64(s))
	ints := func() ([]int64, bool) {
		n, ok := next()
		if !ok || n > uint64(len(b)/8) {
			return nil, false
		}
		out := make([]int64, n)
		for i := range out {
			v, _ := next()
			out[i] = int64(v)
		}
		return out, true
	}
	if p.Count, ok = ints(); !ok {
		return p, bad
	}
	if p.Max, ok = ints(); !ok {
		return p, bad
	}
	n, ok := next()
	if !ok || n != uint64(len(b)/8) || len(b)%8 != 0 {
		return p, bad
	}
	p.Data = make([]float64, n)
	for i := range p.Data {
		v, _ := next()
		p.Data[i] = math.Float64frombits(v)
	}
	return p, nil
}
