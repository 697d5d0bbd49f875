package topic

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/moments-go/moments/mat"
)

// ModelFormat and ModelVersion identify a model file written by Save: its
// "format" and "version" fields. Load refuses any other format and any
// version other than ModelVersion.
const (
	ModelFormat  = "moments-lda"
	ModelVersion = 1
)

// SumTolerance is how far from 1 the sum of a topic of a Model may be:
// Save and Load refuse a topic whose entries sum to s with |s - 1| >
// SumTolerance.
const SumTolerance = 1e-9

// MaxModelEntries bounds the size of a model Load accepts: the declared
// vocabulary size times the number of topics. Load checks the declared
// dimensions against it, and every array against them, before it
// allocates the topic-word matrix.
const MaxModelEntries = 1 << 31

// Model is an LDA model that can be saved and used: the topics (n x k,
// each column a distribution over the n words), the Dirichlet parameters
// of the documents' topic proportions, the names of the words and the
// settings it was learned with. LearnLDA returns one (LDAResult embeds
// it), Load reads one; Infer and its relatives use it.
type Model struct {
	// Vocab names the words (Vocab[id]); nil when the words have no
	// names (a UCI corpus without its vocabulary file).
	Vocab []string
	// Topics is n x k: column j is topic j, non-negative, summing to 1.
	Topics *mat.Dense
	// Alpha holds the k Dirichlet parameters (positive) and Alpha0 the
	// sum of the Dirichlet parameters the model was learned with (the
	// alpha0 given to LearnLDA, which need not equal the sum of Alpha).
	Alpha  []float64
	Alpha0 float64
	// Options records how the model was learned, as names and values
	// (the CLI stores its flags, such as "k", "seed", "refine"); it may
	// be nil. Load returns it as it was saved.
	Options map[string]string
}

// ErrModel is matched (errors.Is) by every error of Load and Save about
// the content of a model: a malformed, truncated or inconsistent file,
// an unknown format or version, values out of range; and by Refine's
// error for an LDAResult that is not a valid model (no Topics or Alpha,
// alphas or topic columns that are not positive finite numbers or
// probabilities, fewer words than the documents have).
var ErrModel = errors.New("topic: invalid model")

func modelErr(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrModel, fmt.Sprintf(format, a...))
}

// NewModel returns the Model of r with the names of its words (vocab may
// be nil) and the settings it was learned with (options may be nil),
// after checking it as Save would. The model shares r's Topics and
// Alpha.
func NewModel(r *LDAResult, vocab []string, options map[string]string) (*Model, error) {
	if r == nil || r.Topics == nil {
		return nil, modelErr("no topics")
	}
	if r.Alpha == nil {
		return nil, modelErr("no Alpha: only an LDA model, with its Dirichlet parameters, can be saved (ECA factors are not distributions)")
	}
	m := &Model{Vocab: vocab, Topics: r.Topics, Alpha: r.Alpha, Alpha0: r.Alpha0, Options: options}
	if err := m.Check(); err != nil {
		return nil, err
	}
	return m, nil
}

// Check reports whether m is a valid model: k >= 1 topics over n >= 1
// words, every entry of Topics finite and non-negative, each topic
// summing to 1 within SumTolerance, Alpha of length k with positive
// finite entries, Alpha0 positive and finite, Vocab nil or of length n.
func (m *Model) Check() error {
	if m.Topics == nil {
		return modelErr("no topics")
	}
	n, k := m.Topics.Dims()
	if n < 1 || k < 1 {
		return modelErr("%d words and %d topics: want at least 1 of each", n, k)
	}
	if len(m.Alpha) != k {
		return modelErr("%d alphas for %d topics", len(m.Alpha), k)
	}
	for j, a := range m.Alpha {
		if !(a > 0) || math.IsInf(a, 1) {
			return modelErr("alpha[%d] = %v: want a positive, finite number", j, a)
		}
	}
	if !(m.Alpha0 > 0) || math.IsInf(m.Alpha0, 1) {
		return modelErr("alpha0 = %v: want a positive, finite number", m.Alpha0)
	}
	if m.Vocab != nil && len(m.Vocab) != n {
		return modelErr("%d words in the vocabulary for %d rows of topics", len(m.Vocab), n)
	}
	sums := make([]float64, k)
	for i := 0; i < n; i++ {
		for j, v := range m.Topics.RawRow(i) {
			if !(v >= 0) || math.IsInf(v, 1) {
				return modelErr("topic %d, word %d: %v is not a probability", j, i, v)
			}
			sums[j] += v
		}
	}
	for j, s := range sums {
		if !(math.Abs(s-1) <= SumTolerance) {
			return modelErr("topic %d sums to %.17g, not 1 (tolerance %g)", j, s, SumTolerance)
		}
	}
	return nil
}

// modelFile is the JSON form of a Model. Topics holds k arrays of n
// numbers (one per topic).
type modelFile struct {
	Format  string            `json:"format"`
	Version int               `json:"version"`
	Words   int               `json:"words"`
	K       int               `json:"topics"`
	Alpha0  float64           `json:"alpha0"`
	Alpha   []float64         `json:"alpha"`
	Options map[string]string `json:"options,omitempty"`
	Vocab   []string          `json:"vocab,omitempty"`
	Topics  [][]float64       `json:"topic_word"`
}

// Save writes m to w as JSON (see Load for the format) after checking it
// as Check does. Every number is written in the shortest form that reads
// back to the same float64, so Load returns exactly the bits saved. The
// words and options are JSON strings: a byte that is not valid UTF-8
// is written as U+FFFD (and so reads back changed).
func Save(w io.Writer, m *Model) error {
	if err := m.Check(); err != nil {
		return err
	}
	n, k := m.Topics.Dims()
	bw := bufio.NewWriterSize(w, 1<<16)
	var buf []byte
	str := func(s string) {
		b, _ := json.Marshal(s) // a string always marshals
		bw.Write(b)
	}
	num := func(v float64) {
		buf = strconv.AppendFloat(buf[:0], v, 'g', -1, 64)
		bw.Write(buf)
	}
	fmt.Fprintf(bw, "{\n  \"format\": %q,\n  \"version\": %d,\n  \"words\": %d,\n  \"topics\": %d,\n  \"alpha0\": ", ModelFormat, ModelVersion, n, k)
	num(m.Alpha0)
	bw.WriteString(",\n  \"alpha\": [")
	for j, a := range m.Alpha {
		if j > 0 {
			bw.WriteString(", ")
		}
		num(a)
	}
	bw.WriteString("]")
	if len(m.Options) > 0 {
		b, err := json.Marshal(m.Options) // sorted keys
		if err != nil {
			return err
		}
		bw.WriteString(",\n  \"options\": ")
		bw.Write(b)
	}
	if m.Vocab != nil {
		bw.WriteString(",\n  \"vocab\": [")
		for i, v := range m.Vocab {
			if i > 0 {
				bw.WriteString(",")
			}
			if i%16 == 0 {
				bw.WriteString("\n    ")
			}
			str(v)
		}
		bw.WriteString("\n  ]")
	}
	bw.WriteString(",\n  \"topic_word\": [")
	col := make([]float64, n)
	for j := 0; j < k; j++ {
		if j > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n    [")
		m.Topics.Col(col, j)
		for i, v := range col {
			if i > 0 {
				bw.WriteString(",")
			}
			num(v)
		}
		bw.WriteString("]")
	}
	bw.WriteString("\n  ]\n}\n")
	return bw.Flush()
}

// Load reads a model written by Save: a JSON object with
//
//	"format": "moments-lda", "version": 1,
//	"words": n, "topics": k, "alpha0": a0, "alpha": [k numbers],
//	"options": {name: value, ...} (optional),
//	"vocab": [n strings] (optional),
//	"topic_word": [k arrays of n numbers, one per topic]
//
// It returns an error matching ErrModel for a file that is malformed or
// truncated, of another format or version, with unknown fields, or whose
// content is inconsistent (arrays whose lengths differ from "words" and
// "topics", more than MaxModelEntries entries) or invalid as Check says
// (non-finite or negative entries, topics not summing to 1 within
// SumTolerance, alphas not positive). The declared dimensions are checked
// before the topic-word matrix is allocated, so memory stays proportional
// to the file's length.
func Load(r io.Reader) (*Model, error) {
	dec := json.NewDecoder(bufio.NewReaderSize(r, 1<<16))
	dec.DisallowUnknownFields()
	var f modelFile
	if err := dec.Decode(&f); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
			return nil, modelErr("truncated file: %v", err)
		case errors.As(err, &se):
			return nil, modelErr("malformed JSON at byte %d: %v", se.Offset, err)
		case errors.As(err, &te):
			return nil, modelErr("field %q: %v", te.Field, err)
		case strings.HasPrefix(err.Error(), "json: "):
			// The decoder's own errors without a type (an unknown field).
			return nil, modelErr("%v", err)
		}
		return nil, err // the reader's error, passed through
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, modelErr("data after the model object")
	}
	if f.Format != ModelFormat {
		return nil, modelErr("format %q: want %q", f.Format, ModelFormat)
	}
	if f.Version != ModelVersion {
		return nil, modelErr("version %d: this reader knows version %d", f.Version, ModelVersion)
	}
	n, k := f.Words, f.K
	if n < 1 || k < 1 {
		return nil, modelErr("%d words and %d topics: want at least 1 of each", n, k)
	}
	if int64(n) > MaxModelEntries/int64(k) {
		return nil, modelErr("%d words x %d topics exceeds %d entries", n, k, int64(MaxModelEntries))
	}
	if len(f.Alpha) != k {
		return nil, modelErr("%d alphas for %d topics", len(f.Alpha), k)
	}
	if f.Vocab != nil && len(f.Vocab) != n {
		return nil, modelErr("%d words in the vocabulary for %d words", len(f.Vocab), n)
	}
	if len(f.Topics) != k {
		return nil, modelErr("%d topics in topic_word for %d topics", len(f.Topics), k)
	}
	for j, t := range f.Topics {
		if len(t) != n {
			return nil, modelErr("topic %d has %d entries for %d words", j, len(t), n)
		}
	}
	topics := mat.Zeros(n, k)
	for j, t := range f.Topics {
		topics.SetCol(j, t)
	}
	m := &Model{Vocab: f.Vocab, Topics: topics, Alpha: f.Alpha, Alpha0: f.Alpha0, Options: f.Options}
	if err := m.Check(); err != nil {
		return nil, err
	}
	return m, nil
}
