package dist_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/moments-go/moments/beam/dist"
	"github.com/moments-go/moments/latent/moments"
)

// Example computes the first moment of a corpus in three shards (one of
// them empty) with a Beam pipeline on the prism runner, exactly as the
// library would in process (Options.Exact).
func Example() {
	dir, err := os.MkdirTemp("", "dist-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	shards := map[string]string{
		"part-0": "0:2 1:1\n2:3\n",
		"part-1": "",
		"part-2": "1:1 2:1\n",
	}
	for name, text := range shards {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			panic(err)
		}
	}
	m, err := dist.NewDocMoments(context.Background(),
		dist.Docs{Glob: filepath.Join(dir, "part-*"), Format: dist.Counts, VocabSize: 3},
		moments.Raw, 0, &dist.Options{Exact: true})
	if err != nil {
		panic(err)
	}
	defer m.Close()
	fmt.Printf("%d documents, %d stored counts, M1 = %.4f\n", m.NumDocs, m.NNZ, m.M1)
	// Output:
	// 3 documents, 5 stored counts, M1 = [0.2222 0.2778 0.5000]
}
