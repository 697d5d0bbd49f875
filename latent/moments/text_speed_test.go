package moments

import (
	"io/fs"
	"os"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"
)

// The real corpora the speed comparison reads, from the environment:
// MOMENTS_BROWN names the Brown corpus's directory (read with Tagged, as
// "moments lda -tagged" does), MOMENTS_SOTU the State of the Union
// addresses' (its .txt files).
type realCorpus struct {
	name string
	fsys fs.FS
	opts *TextOptions
}

func realCorpora(t testing.TB) []realCorpus {
	var cs []realCorpus
	if dir := os.Getenv("MOMENTS_BROWN"); dir != "" {
		cs = append(cs, realCorpus{"Brown -tagged", os.DirFS(dir), RealText(Tagged('/'))},
			realCorpus{"Brown", os.DirFS(dir), RealText(nil)})
	}
	if dir := os.Getenv("MOMENTS_SOTU"); dir != "" {
		o := RealText(nil)
		o.Include = regexp.MustCompile(`\.txt$`).MatchString
		cs = append(cs, realCorpus{"SOTU", os.DirFS(dir), o})
	}
	if len(cs) == 0 {
		t.Skip("MOMENTS_BROWN and MOMENTS_SOTU are not set")
	}
	return cs
}

// cpuTime returns the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestReadTextRealSpeed reads the real corpora with the reader and with
// the reference reader in interleaved rounds, checks that both give the
// same corpus and report, and logs the medians of their CPU times. Run
// it with GOMAXPROCS=1 and -v:
//
//	MOMENTS_BROWN=... MOMENTS_SOTU=... GOMAXPROCS=1 go test -run RealSpeed -v ./latent/moments/
func TestReadTextRealSpeed(t *testing.T) {
	for _, c := range realCorpora(t) {
		const rounds = 11
		var ref, cur []time.Duration
		for r := 0; r < rounds; r++ {
			runtime.GC()
			start := cpuTime()
			want, wantRep, err := refReadTextReport(c.fsys, c.opts)
			ref = append(ref, cpuTime()-start)
			if err != nil {
				t.Fatal(err)
			}
			runtime.GC()
			start = cpuTime()
			got, gotRep, err := ReadTextReport(c.fsys, c.opts)
			cur = append(cur, cpuTime()-start)
			if err != nil {
				t.Fatal(err)
			}
			if r == 0 {
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: the corpus differs from the reference reader's", c.name)
				}
				if !reflect.DeepEqual(gotRep, wantRep) {
					t.Fatalf("%s: report %+v, the reference reader's %+v", c.name, gotRep, wantRep)
				}
				t.Logf("%s: %d documents, %d words, %d tokens", c.name, got.NumDocs(), got.VocabSize(), got.Tokens())
			}
		}
		slices.Sort(ref)
		slices.Sort(cur)
		t.Logf("%s: median CPU time over %d rounds: reference %.1f ms, reader %.1f ms (%.2fx)",
			c.name, rounds, ref[rounds/2].Seconds()*1e3, cur[rounds/2].Seconds()*1e3,
			ref[rounds/2].Seconds()/cur[rounds/2].Seconds())
	}
}

// TestReadTextRealIdentity reads the real corpora with more options
// (ReadBrown's, a vocabulary limit, the zero options, the rules without
// markup stripping or binary skipping) and checks that the reader and
// the reference reader give the same corpus and report.
func TestReadTextRealIdentity(t *testing.T) {
	for _, c := range realCorpora(t) {
		variants := map[string]func(o *TextOptions){
			"ReadBrown's": func(o *TextOptions) {
				*o = TextOptions{Tokenizer: o.Tokenizer, MinDocFreq: 5, Include: brownFile.MatchString}
			},
			"MaxVocab 2000": func(o *TextOptions) { o.MaxVocab = 2000 },
			"zero":          func(o *TextOptions) { *o = TextOptions{Tokenizer: o.Tokenizer, Include: o.Include} },
			"no markup, binary kept, MinWordLen 5": func(o *TextOptions) {
				o.StripMarkup, o.SkipBinary, o.MinWordLen = false, false, 5
			},
		}
		for name, change := range variants {
			o := *c.opts
			change(&o)
			want, wantRep, wantErr := refReadTextReport(c.fsys, &o)
			got, gotRep, err := ReadTextReport(c.fsys, &o)
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("%s, %s: error %v, want %v", c.name, name, err, wantErr)
			}
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotRep, wantRep) {
				t.Fatalf("%s, %s: the corpus or report differs from the reference reader's", c.name, name)
			}
		}
	}
}

// BenchmarkReadTextReal reads the real corpora (see realCorpora).
func BenchmarkReadTextReal(b *testing.B) {
	for _, c := range realCorpora(b) {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := ReadTextReport(c.fsys, c.opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
