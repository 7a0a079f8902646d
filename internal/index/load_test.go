package index

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
)

// TestLoadOrder checks that load hands files over in todo's order, with
// the error of each bad one, whatever order the loaders finish in; and
// that an error from emit or a cancelled context stops it.
func TestLoadOrder(t *testing.T) {
	dir := t.TempDir()
	var todo []change
	for i := range 300 {
		name := fmt.Sprintf("m%03d", i)
		body := "a body of some words"
		if i%7 == 0 {
			body += " and many more words to parse" + fmt.Sprint(make([]int, i)) // uneven sizes
		}
		content := memFile(name, "memory "+name, body)
		if i%50 == 3 {
			content = "---\nname: [broken\n---\n"
		}
		writeFile(t, dir, name+".md", content)
		todo = append(todo, change{seen: seen{source: "project", name: name, path: filepath.Join(dir, name+".md")}})
	}
	ctx := context.Background()

	var got []string
	bad := 0
	err := load(ctx, todo, map[string]int{}, func(c *change, err error) error {
		got = append(got, c.name)
		if err != nil {
			bad++
		} else if c.rec == nil {
			t.Errorf("%s: loaded without a record", c.name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(todo) || bad != 6 {
		t.Fatalf("emitted %d files, %d bad; want %d, 6", len(got), bad, len(todo))
	}
	for i, n := range got {
		if n != todo[i].name {
			t.Fatalf("emitted %s at %d, want %s", n, i, todo[i].name)
		}
	}

	stop := errors.New("stop")
	n := 0
	err = load(ctx, todo, map[string]int{}, func(*change, error) error {
		n++
		if n == 10 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 10 {
		t.Errorf("emit failing at 10: load = %v after %d calls, want %v after 10", err, n, stop)
	}

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := load(cctx, todo, map[string]int{}, func(*change, error) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: load = %v, want %v", err, context.Canceled)
	}
}
