package transcript

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/rogpeppe/go-internal/diff"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run go test -update if the change is right):\n%s", name,
			diff.Diff("want", want, "got", []byte(got)))
	}
}

// digestFiles digests the given transcripts, in order, into one digest.
func digestFiles(t *testing.T, opts Options, paths ...string) *Digest {
	t.Helper()
	b := NewBuilder(opts)
	for _, p := range paths {
		r, err := Open(p, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.ReadFrom(context.Background(), r); err != nil {
			t.Fatal(err)
		}
		r.Close()
	}
	return b.Digest()
}

func TestDigestGolden(t *testing.T) {
	d := digestFiles(t, Options{}, filepath.Join("testdata", "compaction.jsonl"))
	golden(t, "compaction.digest", d.String())

	main := filepath.Join("testdata", "sidechain.jsonl")
	agents, err := SubagentFiles(main)
	if err != nil {
		t.Fatal(err)
	}
	d = digestFiles(t, Options{}, append([]string{main}, agents...)...)
	golden(t, "sidechain.digest", d.String())

	var chunks strings.Builder
	for _, c := range d.Chunks(150) {
		chunks.WriteString("=== tokens " + itoa(c.Tokens) + ", turns " + itoa(c.First) + "-" + itoa(c.Last) + "\n")
		chunks.WriteString(c.Text)
	}
	golden(t, "sidechain.chunks", chunks.String())
}

func TestDigestStructure(t *testing.T) {
	d := digestFiles(t, Options{}, filepath.Join("testdata", "compaction.jsonl"))
	if got, want := len(d.Turns), 5; got != want {
		t.Fatalf("%d turns, want %d", got, want)
	}
	kinds := []TurnKind{TurnPrompt, TurnPrompt, TurnCompaction, TurnPrompt, TurnPrompt}
	for i, k := range kinds {
		if d.Turns[i].Kind != k {
			t.Errorf("turn %d kind = %d, want %d", i+1, d.Turns[i].Kind, k)
		}
	}
	f := d.Files()
	if strings.Join(f.Created, ",") != "internal/cart/coupon_test.go" || strings.Join(f.Edited, ",") != "internal/cart/cart.go" || len(f.Read) != 0 {
		t.Errorf("Files() = %+v", f)
	}
	fails := d.Failures()
	if len(fails) != 1 || fails[0].FixedBy == nil || fails[0].FixedBy.Arg != "go test ./internal/cart/" {
		t.Fatalf("Failures() = %+v, want the failing go test fixed by the later one", fails)
	}
	if len(fails[0].After) != 1 || fails[0].After[0].Name != "Edit" {
		t.Errorf("After = %+v, want the Edit between failure and fix", fails[0].After)
	}
	text := d.String()
	for _, absent := range []string{"system-reminder", "malware", "Let me look at the cart code first", "hook_progress", "trackedFileBackups", "Caveat"} {
		if strings.Contains(text, absent) {
			t.Errorf("digest holds %q", absent)
		}
	}
	if n := strings.Count(text, "I'll start by reading the cart service."); n != 1 {
		t.Errorf("a duplicated assistant line appears %d times, want 1", n)
	}
}

func TestDigestRedact(t *testing.T) {
	secret := "ghp_" + "8kL2mN9vQ4rT7xW1cB5zH3jF6pS0gA2eY4uI"
	long := strings.Repeat("pad ", 3000)
	lines := strings.Join([]string{
		userLine("u1", long+"my token is "+secret+" and <private>I live at 12 Main St</private> "+long),
		`{"type":"assistant","uuid":"a1","requestId":"r","message":{"id":"m","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"curl -H 'Authorization: Bearer ` + secret + `' https://api"}}]}}`,
		`{"type":"user","uuid":"u2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"error: DB_PASSWORD=hunter2 rejected"}]}}`,
	}, "\n") + "\n"
	d, err := Build(context.Background(), NewReader(strings.NewReader(lines), 0), Options{Redact: redact.New(redact.Options{}).String})
	if err != nil {
		t.Fatal(err)
	}
	text := d.String()
	for _, leak := range []string{secret, "12 Main St", "hunter2", "<private>"} {
		if strings.Contains(text, leak) {
			t.Errorf("digest leaks %q", leak)
		}
	}
	for _, kept := range []string{"chars cut", "[REDACTED:github-token]", "DB_PASSWORD=[REDACTED:password]"} {
		if !strings.Contains(text, kept) {
			t.Errorf("digest lacks %q", kept)
		}
	}
}

// TestDigestIncremental digests a session in two jobs cut mid-turn: the
// second starts with a continued turn, and no tool call is in both.
func TestDigestIncremental(t *testing.T) {
	path := filepath.Join("testdata", "compaction.jsonl")
	all := openAll(t, path, 0)
	var cut int64
	for _, e := range all {
		if e.UUID == "a6" { // the Edit, mid-turn
			cut = e.Offset
		}
	}
	r1, _ := Open(path, 0)
	defer r1.Close()
	b1 := NewBuilder(Options{})
	for {
		e, err := r1.Next()
		if err != nil || e.Offset >= cut {
			break
		}
		b1.Add(e)
	}
	r2, _ := Open(path, cut)
	defer r2.Close()
	d1 := b1.Digest()
	d2, err := Build(context.Background(), r2, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d2.Turns[0].Kind != TurnContinued {
		t.Errorf("second part starts with turn kind %d, want TurnContinued", d2.Turns[0].Kind)
	}
	ids := map[string]int{}
	for _, d := range []*Digest{d1, d2} {
		for _, c := range d.calls() {
			ids[c.ID]++
		}
	}
	for id, n := range ids {
		if n != 1 {
			t.Errorf("tool call %s appears in %d parts", id, n)
		}
	}
	// The failure of part one is fixed in part two: each part tells what it saw.
	if f := d1.Failures(); len(f) != 1 || f[0].FixedBy != nil {
		t.Errorf("part one failures = %+v, want one, not fixed", f)
	}
}

func TestChunksBudget(t *testing.T) {
	d := digestFiles(t, Options{}, filepath.Join("testdata", "compaction.jsonl"))
	for _, budget := range []int{120, 150, 200, 400, 100000} {
		chunks := d.Chunks(budget)
		seen := map[string]bool{}
		for i, c := range chunks {
			// Below header + 50 tokens, the budget cannot hold; chunks
			// then carry at least 200 characters of content each.
			if limit := max(budget, memory.EstimateTokens(d.header("9999/9999"))+50); c.Tokens > limit {
				t.Errorf("budget %d: chunk %d has %d tokens", budget, i+1, c.Tokens)
			}
			if !strings.HasPrefix(c.Text, "# session digest\n") || !strings.Contains(c.Text, "chunk: "+itoa(i+1)+"/"+itoa(len(chunks))+"\n") {
				t.Errorf("budget %d: chunk %d lacks its header", budget, i+1)
			}
			for line := range strings.SplitSeq(c.Text, "\n") {
				if strings.HasPrefix(line, "## turn") && !strings.HasSuffix(line, "(continued)") {
					if seen[line] {
						t.Errorf("budget %d: %q opens two chunks", budget, line)
					}
					seen[line] = true
				}
			}
		}
		if len(seen) != len(d.Turns) {
			t.Errorf("budget %d: chunks hold %d turns, want %d", budget, len(seen), len(d.Turns))
		}
	}
	if n := len(d.Chunks(100000)); n != 1 {
		t.Errorf("a digest that fits makes %d chunks, want 1", n)
	}
}

func TestChunksSplitLongTurn(t *testing.T) {
	d := &Digest{Turns: []*Turn{{Index: 1, Items: []Item{{Kind: ItemUser, Text: strings.Repeat("word ", 2000) + "\n" + strings.Repeat("x", 5000)}}}}}
	chunks := d.Chunks(300)
	if len(chunks) < 3 {
		t.Fatalf("%d chunks, want the long turn split in several", len(chunks))
	}
	var body strings.Builder
	for i, c := range chunks {
		if c.Tokens > 300 {
			t.Errorf("chunk %d has %d tokens, over 300", i+1, c.Tokens)
		}
		if i > 0 && !strings.Contains(c.Text, "## turn 1 (continued)\n") {
			t.Errorf("chunk %d lacks the continued heading", i+1)
		}
		_, rest, _ := strings.Cut(c.Text, "\n\n")
		rest = strings.TrimPrefix(rest, "## turn 1 (continued)\n")
		body.WriteString(strings.ReplaceAll(rest, "\n", ""))
	}
	if got, want := strings.Count(body.String(), "x"), 5000; got != want {
		t.Errorf("chunks hold %d of the %d characters of the long line", got, want)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
