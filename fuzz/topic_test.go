package fuzz

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/moments-go/moments/latent/topic"
)

// FuzzLoadModel: any input either fails with topic.ErrModel (or the
// reader's error, which a bytes.Reader never gives) or loads a model that
// passes Check and saves to a file that loads back with the same bits.
func FuzzLoadModel(f *testing.F) {
	f.Add([]byte(`{"format": "moments-lda", "version": 1, "words": 2, "topics": 1, "alpha0": 1, "alpha": [1], "vocab": ["a", "b"], "topic_word": [[0.25,0.75]]}`))
	f.Add([]byte(`{"format": "moments-lda", "version": 1, "words": 2, "topics": 2, "alpha0": 0.5, "alpha": [0.1, 5e-324], "options": {"k": "2"}, "topic_word": [[1,0],[0.5,0.5]]}`))
	f.Add([]byte(`{"format": "moments-lda", "version": 1, "words": 100000000000, "topics": 1000, "alpha0": 1, "alpha": [1], "topic_word": [[1]]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := topic.Load(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, topic.ErrModel) {
				t.Fatalf("error not matching ErrModel: %v", err)
			}
			return
		}
		if err := m.Check(); err != nil {
			t.Fatalf("loaded a model that fails Check: %v", err)
		}
		var buf bytes.Buffer
		if err := topic.Save(&buf, m); err != nil {
			t.Fatalf("cannot save a loaded model: %v", err)
		}
		again, err := topic.Load(&buf)
		if err != nil {
			t.Fatalf("cannot load a saved model: %v", err)
		}
		a, b := m.Topics.RawData(), again.Topics.RawData()
		for i := range a {
			if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
				t.Fatalf("entry %d: %v, then %v", i, a[i], b[i])
			}
		}
	})
}
