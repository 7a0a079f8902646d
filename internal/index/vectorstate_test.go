package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// vectorView is what a reader finds of the vectors of one model.
type vectorView struct {
	has     bool
	mean    string // the mean's first values, or "none"
	nearest []string
}

func (s vectorView) String() string {
	return fmt.Sprintf("has %v, mean %s, nearest %v", s.has, s.mean, s.nearest)
}

// view asks db, as a recall does, what it holds of model's vectors.
func view(t *testing.T, db *DB, model string) vectorView {
	t.Helper()
	ctx := context.Background()
	v, err := db.Vectors(ctx, model)
	if err != nil {
		t.Fatal(err)
	}
	s := vectorView{has: v.Has(), mean: "none"}
	if m := v.Mean(); m != nil {
		s.mean = fmt.Sprintf("%.3f", m[:4])
	}
	hits, err := v.Nearest(ctx, NearQuery{Vector: modelVector(model, "deploy cat tests"), Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	s.nearest = names(t, db, hits)
	slices.Sort(s.nearest)
	return s
}

// TestVectorsAfterAnotherWrote: a reader that keeps what it read of the
// vectors (the MCP server) sees, on its next call, what another process
// wrote since, whatever it changed: the vectors, their mean alone, the
// model, or the memories. Each step is compared with what a new reader
// of the same file sees.
func TestVectorsAfterAnotherWrote(t *testing.T) {
	ctx := context.Background()
	writer, dir := vectorVault(t)
	reader, err := Open(ctx, writer.Path(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	steps := []struct {
		name  string
		model string // the model the reader asks for
		write func(t *testing.T)
	}{
		{"nothing embedded", "v1", func(*testing.T) {}},
		{"vectors without their mean yet", "v1", func(t *testing.T) {
			if err := writer.useModel(ctx, "v1"); err != nil {
				t.Fatal(err)
			}
			batch, err := writer.unembedded(ctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			vecs := make([][]float32, len(batch))
			for i, u := range batch {
				vecs[i] = modelVector("v1", u.text)
			}
			if _, err := writer.writeVectors(ctx, "v1", batch, vecs); err != nil {
				t.Fatal(err)
			}
		}},
		{"the mean written", "v1", func(t *testing.T) {
			if err := writer.writeMean(ctx, "v1"); err != nil {
				t.Fatal(err)
			}
		}},
		{"a memory edited", "v1", func(t *testing.T) {
			writeFile(t, dir, "cat.md", memFile("cat", "A dog now", "A dog."))
			mustSync(t, writer, dir)
		}},
		{"embedded again", "v1", func(t *testing.T) {
			if _, err := writer.EmbedMissing(ctx, &wordEmbedder{model: "v1"}, nil); err != nil {
				t.Fatal(err)
			}
		}},
		{"another model", "v1", func(t *testing.T) {
			if _, err := writer.EmbedMissing(ctx, &wordEmbedder{model: "v2"}, nil); err != nil {
				t.Fatal(err)
			}
		}},
		{"asked for the other model", "v2", func(*testing.T) {}},
		{"a memory removed", "v2", func(t *testing.T) {
			if err := os.Remove(filepath.Join(dir, "deploy.md")); err != nil {
				t.Fatal(err)
			}
			mustSync(t, writer, dir)
		}},
	}
	for _, st := range steps {
		st.write(t)
		got := view(t, reader, st.model)
		fresh, err := Open(ctx, writer.Path(), nil)
		if err != nil {
			t.Fatal(err)
		}
		want := view(t, fresh, st.model)
		fresh.Close()
		if got.String() != want.String() {
			t.Errorf("%s: the reader that kept its vectors sees %v, want %v", st.name, got, want)
		}
	}
}

// TestVectorsKept: a reader asking again with nothing written meanwhile
// gets what it read before, not another copy.
func TestVectorsKept(t *testing.T) {
	ctx := context.Background()
	db, _ := vectorVault(t)
	if _, err := db.EmbedMissing(ctx, &wordEmbedder{}, nil); err != nil {
		t.Fatal(err)
	}
	a, err := db.Vectors(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Nearest(ctx, NearQuery{Vector: wordVector("cat"), Limit: 1}); err != nil {
		t.Fatal(err)
	}
	b, err := db.Vectors(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if a.st != b.st || b.st.set == nil {
		t.Errorf("Vectors asked again read them again (state %p, then %p with set %v)", a.st, b.st, b.st.set != nil)
	}
}
