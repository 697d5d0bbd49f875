package dist

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local shards and results
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
)

// Options configures how the passes run. nil means the defaults.
type Options struct {
	// Runner runs one pipeline to completion. nil runs it on the prism
	// runner in this process (prism.Execute). The command moments-beam
	// passes beamx.Run, which picks the runner named by --runner.
	Runner func(ctx context.Context, p *beam.Pipeline) error
	// TempDir holds what a pass hands to the workers (the thin matrix
	// X, the whitening W, the word renumbering) and what it hands back
	// (the sum of the parts). Workers must be able to read and write it:
	// a local directory for prism, a gs:// path for Dataflow, a shared
	// file system for Flink and Spark. "" means a new directory under
	// os.TempDir(), removed by Close.
	TempDir string
	// OnPass, if not nil, is called after each pass with what it cost.
	OnPass func(PassStats)
	// Exact makes the document passes (DocMoments, LearnLDA, LearnECA)
	// the same bits as the in-process passes, and so the learned model
	// the same bits as topic.LearnLDA's or LearnECA's on the
	// concatenated shards. It costs one more pass (counting the
	// documents of every shard), and every pass sends the accumulator
	// of every in-process chunk (moments.MeanChunk, moments.WideChunk)
	// to this process, which merges them in order: about 256 chunks of
	// 8n bytes for M1, and max(16, nnz/(20n)) of 8nw bytes for each
	// Pairs X. That suits corpora whose chunks fit that budget, not a
	// billion documents; see the package documentation.
	Exact bool
	// MaxMemory bounds (bytes) what one pass holds at once in this
	// process and in each worker: a shard's part, the accumulator that
	// sums it and the result, about 3 x 8 bytes per value of the part
	// (n x w for Pairs X). A pass that would need more returns a
	// *mat.MemoryError (matching mat.ErrTooLarge) before it runs. 0
	// means mat.DefaultMaxMemory (4 GiB), negative no limit. The
	// learners' own options (topic.Options.MaxMemory and the like) bound
	// what they hold besides.
	MaxMemory int64
	// BlockValues bounds the values of the parts that one key of the
	// combine sums: a longer part (Pairs X of a large vocabulary) is
	// cut into blocks of about BlockValues values, each summed by its
	// own tree, so that no single worker receives every shard's whole
	// part. 0 means DefaultBlockValues; a negative value is refused
	// with an error matching moments.ErrBadOption.
	BlockValues int
}

// PassStats describes one pass (one pipeline).
type PassStats struct {
	// Name is the pass: "mean", "pairs", "triples" (documents);
	// "mean", "covariance", "psi", "third" (samples); "dims", "count"
	// (discrete samples).
	Name string
	// Shards is the number of shards read; Blocks the number of keys
	// their parts are cut into.
	Shards, Blocks int
	// PartBytes is the size of the parts that the shards send to the
	// combine (one per shard; the bytes a runner shuffles at most for
	// the pass, before any combining within a bundle); for an exact
	// pass, the size of the chunks' accumulators sent to the driver
	// (Blocks is then the number of chunks).
	PartBytes int64
	// BroadcastBytes is the size of the matrix the pass hands to every
	// worker (X or W; 0 for the passes without one).
	BroadcastBytes int64
	// Wall is the time the pipeline took, start to result.
	Wall time.Duration
}

// ShardRef names one shard and its place in the sorted list.
type ShardRef struct {
	Index int
	Path  string
}

// runner holds what every pass of one data set shares.
type runner struct {
	opts    Options
	shards  []string
	temp    string
	ownTemp bool
	seq     atomic.Int64
}

// newRunner expands glob (any file system Beam knows: local paths,
// gs:// with the gcs file system imported) into its sorted list of
// shards.
func newRunner(ctx context.Context, glob string, opts *Options) (*runner, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.BlockValues < 0 {
		return nil, fmt.Errorf("dist: %w: Options.BlockValues = %d (need >= 0; 0 for DefaultBlockValues)", moments.ErrBadOption, o.BlockValues)
	}
	fs, err := filesystem.New(ctx, glob)
	if err != nil {
		return nil, fmt.Errorf("dist: %q: %w", glob, err)
	}
	defer fs.Close()
	shards, err := fs.List(ctx, glob)
	if err != nil {
		return nil, fmt.Errorf("dist: listing %q: %w", glob, err)
	}
	if len(shards) == 0 {
		return nil, fmt.Errorf("dist: no shard matches %q", glob)
	}
	slices.Sort(shards)
	r := &runner{opts: o, shards: shards, temp: o.TempDir}
	if r.temp == "" {
		if r.temp, err = os.MkdirTemp("", "moments-beam-"); err != nil {
			return nil, fmt.Errorf("dist: %w", err)
		}
		r.ownTemp = true
	}
	return r, nil
}

// close removes the temporary directory if the runner made it.
func (r *runner) close() error {
	if r.ownTemp {
		return os.RemoveAll(r.temp)
	}
	return nil
}

// tempPath returns a new path under the temporary directory.
func (r *runner) tempPath(what string) string {
	name := fmt.Sprintf("%s-%d-%d", what, os.Getpid(), r.seq.Add(1))
	if strings.Contains(r.temp, "://") {
		return strings.TrimSuffix(r.temp, "/") + "/" + name
	}
	return filepath.Join(r.temp, name)
}

// run runs one pass: fn reads every shard and emits its part, TreeFn
// sums the parts in a fixed tree, and the sum comes back through a file
// in the temporary directory.
//
// values is the length of the parts' Data (0 when the driver does not
// know it before the pass); parts longer than Options.BlockValues are
// cut into blocks of rows that are summed under keys of their own
// (CombinePerKey), so that the final merges of a pass spread over as
// many workers as there are blocks. Cutting changes no bit of the sum.
func (r *runner) run(ctx context.Context, name string, fn *shardFn, broadcast int64, values int) (Part, error) {
	if ctx == nil {
		panic("dist: nil context")
	}
	if err := r.checkMemory(name, values); err != nil {
		return Part{}, err
	}
	start := time.Now()
	per := r.opts.BlockValues
	if per == 0 {
		per = DefaultBlockValues
	}
	fn.Blocks = max(1, (values+per-1)/per)
	out := r.tempPath("result-" + name)
	p, s := beam.NewPipelineWithRoot()
	refs := make([]ShardRef, len(r.shards))
	for i, path := range r.shards {
		refs[i] = ShardRef{Index: i, Path: path}
	}
	parts := beam.ParDo(s, fn, beam.CreateList(s, refs))
	sums := beam.CombinePerKey(s, &TreeFn{Shards: len(r.shards)}, parts)
	beam.ParDo0(s, &writeFn{Path: out}, sums)
	run := r.opts.Runner
	if run == nil {
		run = func(ctx context.Context, p *beam.Pipeline) error { _, err := prism.Execute(ctx, p); return err }
	}
	if err := run(ctx, p); err != nil {
		return Part{}, fmt.Errorf("dist: the %s pass: %w", name, err)
	}
	var part Part
	for b := 0; b < fn.Blocks; b++ {
		path := fmt.Sprintf("%s-%d", out, b)
		data, err := readAll(ctx, path)
		if err != nil {
			return Part{}, fmt.Errorf("dist: the %s pass: reading its result: %w", name, err)
		}
		removeFile(ctx, path)
		block, err := decodePart(data)
		if err != nil {
			return Part{}, err
		}
		if b == 0 {
			part = block
			continue
		}
		part.Data = append(part.Data, block.Data...)
		part.Count[len(part.Count)-1] += block.Bytes()
	}
	if r.opts.OnPass != nil {
		r.opts.OnPass(PassStats{Name: name, Shards: len(r.shards), Blocks: fn.Blocks, PartBytes: part.Bytes(), BroadcastBytes: broadcast, Wall: time.Since(start)})
	}
	return part, nil
}

// checkMemory applies Options.MaxMemory to a pass whose parts hold
// values values.
func (r *runner) checkMemory(name string, values int) error {
	need := int64(math.MaxInt64)
	if values < 1<<58 {
		need = 24 * int64(values)
	}
	if err := mat.CheckMemory(fmt.Sprintf("the %s pass (parts of %d values)", name, values), need, r.opts.MaxMemory); err != nil {
		return fmt.Errorf("dist: %w", err)
	}
	return nil
}

// DefaultBlockValues is the default of Options.BlockValues: 8Mi values,
// 64 MiB.
const DefaultBlockValues = 8 << 20

// Bytes returns the size of the parts summed into p, which the shard
// function records in the last counter.
func (p Part) Bytes() int64 {
	if len(p.Count) == 0 {
		return 0
	}
	return p.Count[len(p.Count)-1]
}

// writeFn writes the sum of block b of a pass to Path-b.
type writeFn struct {
	Path string
}

// ProcessElement writes p.
func (f *writeFn) ProcessElement(ctx context.Context, b int, p Part) error {
	return writeAll(ctx, fmt.Sprintf("%s-%d", f.Path, b), encodePart(p))
}

func init() {
	register.DoFn3x1[context.Context, ShardRef, func(int, Part), error](&shardFn{})
	register.Emitter2[int, Part]()
	register.DoFn3x1[context.Context, int, Part, error](&writeFn{})
	register.Combiner3[TreeAcc, Part, Part](&TreeFn{})
}

// readAll reads the file at path through Beam's file systems.
func readAll(ctx context.Context, path string) ([]byte, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, path)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// writeAll writes b to path through Beam's file systems.
func writeAll(ctx context.Context, path string, b []byte) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// removeFile removes path if its file system can.
func removeFile(ctx context.Context, path string) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return
	}
	defer fs.Close()
	if rm, ok := fs.(filesystem.Remover); ok {
		_ = rm.Remove(ctx, path)
	}
}

// putMatrix writes m to a new temporary file and returns its path and
// size: rows, columns, then the values, little-endian.
func (r *runner) putMatrix(ctx context.Context, what string, m *mat.Dense) (string, int64, error) {
	rows, cols := m.Dims()
	buf := make([]byte, 0, 16+8*rows*cols)
	buf = binary.LittleEndian.AppendUint64(buf, uint64(rows))
	buf = binary.LittleEndian.AppendUint64(buf, uint64(cols))
	for i := 0; i < rows; i++ {
		for _, v := range m.RawRow(i) {
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
		}
	}
	path := r.tempPath(what)
	if err := writeAll(ctx, path, buf); err != nil {
		return "", 0, fmt.Errorf("dist: writing %s: %w", what, err)
	}
	return path, int64(len(buf)), nil
}

// getMatrix reads a matrix written by putMatrix.
func getMatrix(ctx context.Context, path string) (*mat.Dense, error) {
	b, err := readAll(ctx, path)
	if err != nil {
		return nil, err
	}
	if len(b) < 16 {
		return nil, fmt.Errorf("dist: %s: not a matrix", path)
	}
	rows, cols := binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])
	b = b[16:]
	if rows > math.MaxInt32 || cols > math.MaxInt32 || uint64(len(b)) != 8*rows*cols {
		return nil, fmt.Errorf("dist: %s: not a matrix", path)
	}
	m := mat.Zeros(int(rows), int(cols))
	for i := 0; i < int(rows); i++ {
		row := m.RawRow(i)
		for j := range row {
			row[j] = math.Float64frombits(binary.LittleEndian.Uint64(b))
			b = b[8:]
		}
	}
	return m, nil
}

// putInts writes a list of integers as text, one a line.
func (r *runner) putInts(ctx context.Context, what string, v []int32) (string, error) {
	var buf bytes.Buffer
	for _, x := range v {
		buf.WriteString(strconv.Itoa(int(x)))
		buf.WriteByte('\n')
	}
	path := r.tempPath(what)
	if err := writeAll(ctx, path, buf.Bytes()); err != nil {
		return "", fmt.Errorf("dist: writing %s: %w", what, err)
	}
	return path, nil
}

// getInts reads what putInts wrote.
func getInts(ctx context.Context, path string) ([]int32, error) {
	b, err := readAll(ctx, path)
	if err != nil {
		return nil, err
	}
	var out []int32
	for _, f := range bytes.Fields(b) {
		v, err := strconv.ParseInt(string(f), 10, 32)
		if err != nil {
			return nil, errors.New("dist: " + path + ": not a list of integers")
		}
		out = append(out, int32(v))
	}
	return out, nil
}
