package transcript

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// readAll returns every entry a Reader gives for data read from offset.
func readAll(t *testing.T, data string, offset int64) ([]Entry, *Reader) {
	t.Helper()
	r := NewReader(strings.NewReader(data[offset:]), offset)
	var out []Entry
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, r
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		out = append(out, e)
	}
}

func userLine(uuid, text string) string {
	return fmt.Sprintf(`{"type":"user","uuid":%q,"sessionId":"s1","cwd":"/w","version":"2.1.0","timestamp":"2026-11-30T10:00:00Z","message":{"role":"user","content":%q}}`, uuid, text)
}

func TestReaderOffsets(t *testing.T) {
	lines := []string{userLine("u1", "one"), userLine("u2", "two"), userLine("u3", "three")}
	data := strings.Join(lines, "\n") + "\n"
	entries, r := readAll(t, data, 0)
	if len(entries) != 3 {
		t.Fatalf("got %d entries, want 3", len(entries))
	}
	off := int64(0)
	for i, e := range entries {
		want := off + int64(len(lines[i])) + 1
		if e.Offset != off || e.End != want {
			t.Errorf("entry %d: Offset, End = %d, %d; want %d, %d", i, e.Offset, e.End, off, want)
		}
		off = want
	}
	if got := r.Offset(); got != int64(len(data)) {
		t.Errorf("Offset() = %d, want %d", got, len(data))
	}
}

func TestReaderTruncatedLastLine(t *testing.T) {
	whole := userLine("u1", "one") + "\n"
	partial := userLine("u2", "two")
	cut := partial[:len(partial)/2]

	entries, r := readAll(t, whole+cut, 0)
	if len(entries) != 1 {
		t.Fatalf("got %d entries, want 1 (the unfinished line is not an entry)", len(entries))
	}
	if got, want := r.Offset(), int64(len(whole)); got != want {
		t.Errorf("Offset() = %d, want %d (end of the last complete line)", got, want)
	}
	if got, want := r.Stats().Pending, int64(len(cut)); got != want {
		t.Errorf("Stats().Pending = %d, want %d", got, want)
	}

	// The writer finishes the line; the next job resumes at Offset.
	data := whole + partial + "\n" + userLine("u3", "three") + "\n"
	entries, r = readAll(t, data, r.Offset())
	if len(entries) != 2 || entries[0].UUID != "u2" || entries[1].UUID != "u3" {
		t.Fatalf("resumed entries = %v, want u2 and u3", uuids(entries))
	}
	if r.Offset() != int64(len(data)) {
		t.Errorf("Offset() = %d, want %d", r.Offset(), len(data))
	}
}

func TestReaderUnterminatedWholeLine(t *testing.T) {
	// A last line that is already a whole JSON object is complete: only its
	// newline is missing.
	data := userLine("u1", "one") + "\n" + userLine("u2", "two")
	entries, r := readAll(t, data, 0)
	if len(entries) != 2 {
		t.Fatalf("got %d entries, want 2", len(entries))
	}
	if r.Offset() != int64(len(data)) || r.Stats().Pending != 0 {
		t.Errorf("Offset, Pending = %d, %d; want %d, 0", r.Offset(), r.Stats().Pending, len(data))
	}
	// When the newline arrives with more lines, nothing is read twice.
	more := data + "\n" + userLine("u3", "three") + "\n"
	entries, _ = readAll(t, more, r.Offset())
	if len(entries) != 1 || entries[0].UUID != "u3" {
		t.Errorf("resumed entries = %v, want [u3]", uuids(entries))
	}
}

func TestReaderTolerance(t *testing.T) {
	tests := []struct {
		name  string
		line  string
		want  int // entries
		stats Stats
	}{
		{"blank", "   ", 0, Stats{Lines: 1, Blank: 1}},
		{"not json", "hello", 0, Stats{Lines: 1, Bad: 1}},
		{"json array", `[1,2]`, 0, Stats{Lines: 1, Bad: 1}},
		{"broken object", `{"type":"user","message":{`, 0, Stats{Lines: 1, Bad: 1}},
		{"unknown type", `{"type":"progress","data":{"type":"hook_progress"}}`, 0, Stats{Lines: 1, Skipped: 1}},
		{"no type", `{"uuid":"x"}`, 0, Stats{Lines: 1, Skipped: 1}},
		{"field of wrong type", `{"type":"user","isSidechain":"yes","uuid":"u","message":{"role":"user","content":"hi"}}`, 1, Stats{Lines: 1, Entries: 1}},
		{"content of wrong type", `{"type":"user","uuid":"u","message":{"role":"user","content":42}}`, 1, Stats{Lines: 1, Entries: 1}},
		{"tool result of wrong type", `{"type":"user","toolUseResult":[1],"message":{"content":[{"type":"tool_result","content":{"x":1}}]}}`, 1, Stats{Lines: 1, Entries: 1}},
		{"invalid utf-8 in a string", "{\"type\":\"user\",\"message\":{\"content\":\"caf\xe9\"}}", 1, Stats{Lines: 1, Entries: 1, Repaired: 1}},
		{"invalid utf-8 outside", "{\"type\":\"user\"\xff}", 0, Stats{Lines: 1, Bad: 1, Repaired: 1}},
		{"crlf", userLine("u", "x") + "\r", 1, Stats{Lines: 1, Entries: 1}},
		{"attachment without prompt", `{"type":"attachment","attachment":{"type":"hook_success"}}`, 0, Stats{Lines: 1, Skipped: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			entries, r := readAll(t, tt.line+"\n", 0)
			if len(entries) != tt.want {
				t.Errorf("got %d entries, want %d", len(entries), tt.want)
			}
			if got := r.Stats(); got != tt.stats {
				t.Errorf("Stats() = %+v, want %+v", got, tt.stats)
			}
		})
	}
}

func TestReaderRepairsText(t *testing.T) {
	entries, _ := readAll(t, "{\"type\":\"user\",\"message\":{\"content\":\"caf\xe9 ok\"}}\n", 0)
	if got, want := entries[0].Content[0].Text, "caf\uFFFD ok"; got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
}

// TestReaderOversizedLine: a line longer than MaxLineBytes is stepped
// over, counted, and named to Oversized by its number, offset and length;
// the lines around it are read.
func TestReaderOversizedLine(t *testing.T) {
	type skip struct {
		line int
		off  int64
		size int
	}
	small, big := userLine("u1", "a"), userLine("big", strings.Repeat("x", 5000))
	tests := []struct {
		name  string
		lines []string
		want  []string
		skips []skip
	}{
		{"between", []string{small, big, userLine("u2", "b")}, []string{"u1", "u2"},
			[]skip{{2, int64(len(small) + 1), len(big)}}},
		{"first", []string{big, small}, []string{"u1"}, []skip{{1, 0, len(big)}}},
		{"two", []string{small, big, big, small}, []string{"u1", "u1"},
			[]skip{{2, int64(len(small) + 1), len(big)}, {3, int64(len(small) + len(big) + 2), len(big)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := strings.Join(tt.lines, "\n") + "\n"
			r := NewReader(strings.NewReader(data), 0)
			r.MaxLineBytes = 1000
			var skips []skip
			r.Oversized = func(line int, off int64, size int) { skips = append(skips, skip{line, off, size}) }
			var got []string
			for {
				e, err := r.Next()
				if err != nil {
					break
				}
				got = append(got, e.UUID)
			}
			if !slices.Equal(got, tt.want) || r.Stats().Oversized != len(tt.skips) {
				t.Errorf("entries %v, Oversized %d; want %v, %d", got, r.Stats().Oversized, tt.want, len(tt.skips))
			}
			if !slices.Equal(skips, tt.skips) {
				t.Errorf("Oversized heard %v, want %v", skips, tt.skips)
			}
			if r.Offset() != int64(len(data)) {
				t.Errorf("Offset() = %d, want %d", r.Offset(), len(data))
			}
		})
	}
}

func TestReaderDedupe(t *testing.T) {
	asst := func(uuid, msgID, req, block string) string {
		return fmt.Sprintf(`{"type":"assistant","uuid":%q,"requestId":%q,"message":{"id":%q,"role":"assistant","content":[%s]}}`, uuid, req, msgID, block)
	}
	text := `{"type":"text","text":"hello"}`
	call := `{"type":"tool_use","id":"toolu_1","name":"Read","input":{"file_path":"/a"}}`
	data := strings.Join([]string{
		asst("a1", "msg_1", "req_1", text),
		asst("a2", "msg_1", "req_1", call),
		asst("a3", "msg_1", "req_1", text),          // a repeat of a1's block
		asst("a4", "msg_1", "req_1", text+","+call), // a cumulative line
		asst("a5", "msg_2", "req_2", text),          // another response says the same
	}, "\n") + "\n"
	entries, r := readAll(t, data, 0)
	if got := strings.Join(uuids(entries), ","); got != "a1,a2,a5" {
		t.Errorf("entries = %s, want a1,a2,a5", got)
	}
	if r.Stats().Duplicates != 2 {
		t.Errorf("Duplicates = %d, want 2", r.Stats().Duplicates)
	}
}

func TestReaderMeta(t *testing.T) {
	data := strings.Join([]string{
		`{"type":"progress","sessionId":"s1","timestamp":"2026-11-30T09:59:00Z"}`,
		`{"type":"user","isSidechain":true,"cwd":"/w/sub","gitBranch":"side","sessionId":"s1","timestamp":"2026-11-30T10:00:00Z","message":{"content":"x"}}`,
		`{"type":"user","cwd":"/w","gitBranch":"main","version":"2.1.0","sessionId":"s1","timestamp":"2026-11-30T10:05:00Z","message":{"content":"y"}}`,
		`{"type":"user","cwd":"/w/elsewhere","gitBranch":"later","timestamp":"2026-11-30T10:03:00Z","message":{"content":"z"}}`,
	}, "\n") + "\n"
	_, r := readAll(t, data, 0)
	got := r.Meta()
	if got.SessionID != "s1" || got.CWD != "/w" || got.GitBranch != "main" || got.Version != "2.1.0" {
		t.Errorf("Meta() = %+v, want session s1, cwd /w, branch main, version 2.1.0 (first main-chain values)", got)
	}
	if s, e := stamp(got.Start), stamp(got.End); s != "2026-11-30T09:59:00Z" || e != "2026-11-30T10:05:00Z" {
		t.Errorf("time span = %s to %s, want 09:59:00 to 10:05:00", s, e)
	}
}

// TestReaderIncremental cuts a transcript every few bytes, as a file being
// written would be seen, and checks that reading up to the cut and then on
// from the reported offset returns every entry exactly once, even when the
// cut splits the lines of one assistant response.
func TestReaderIncremental(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "compaction.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	all := openAll(t, filepath.Join("testdata", "compaction.jsonl"), 0)
	want := strings.Join(uuids(all), ",")
	for cut := 0; cut <= len(raw); cut += 37 {
		if err := os.WriteFile(path, raw[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := Open(path, 0)
		if err != nil {
			t.Fatal(err)
		}
		first := drain(t, r)
		off := r.Offset()
		r.Close()
		if off > int64(cut) || (off > 0 && raw[off-1] != '\n' && off != int64(cut)) {
			t.Fatalf("cut %d: Offset() = %d is not a line end within the data", cut, off)
		}
		if err := os.WriteFile(path, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		rest := openAll(t, path, off)
		if got := strings.Join(append(uuids(first), uuids(rest)...), ","); got != want {
			t.Fatalf("cut %d: entries\n%s\nwant\n%s", cut, got, want)
		}
	}
}

func openAll(t *testing.T, path string, offset int64) []Entry {
	t.Helper()
	r, err := Open(path, offset)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	return drain(t, r)
}

func drain(t *testing.T, r *Reader) []Entry {
	t.Helper()
	var out []Entry
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		out = append(out, e)
	}
}

func TestOpenFromOffset(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	first := userLine("u1", "one") + "\n"
	if err := os.WriteFile(path, []byte(first+userLine("u2", "two")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(path, int64(len(first)))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	e, err := r.Next()
	if err != nil || e.UUID != "u2" || e.Offset != int64(len(first)) {
		t.Errorf("Next() = %q at %d, %v; want u2 at %d", e.UUID, e.Offset, err, len(first))
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing.jsonl"), 0); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open of a missing file: %v, want os.ErrNotExist", err)
	}
	if _, err := Open(path, 1<<20); !errors.Is(err, ErrOffset) {
		t.Errorf("Open past the end: %v, want ErrOffset", err)
	}
}

func TestSubagentFiles(t *testing.T) {
	got, err := SubagentFiles(filepath.Join("testdata", "sidechain.jsonl"))
	want := []string{filepath.Join("testdata", "sidechain", "subagents", "agent-a9f8e7d.jsonl")}
	if err != nil || strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("SubagentFiles = %v, %v; want %v", got, err, want)
	}

	// Older versions wrote agent-*.jsonl beside the session file.
	dir := t.TempDir()
	main := filepath.Join(dir, "s1.jsonl")
	write := func(name, session string) {
		line := fmt.Sprintf(`{"type":"user","isSidechain":true,"sessionId":%q,"message":{"content":"x"}}`+"\n", session)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("s1.jsonl", "s1")
	write("agent-1.jsonl", "s1")
	write("agent-2.jsonl", "other")
	got, err = SubagentFiles(main)
	if err != nil || len(got) != 1 || filepath.Base(got[0]) != "agent-1.jsonl" {
		t.Errorf("SubagentFiles = %v, %v; want [agent-1.jsonl]", got, err)
	}
}

func uuids(entries []Entry) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.UUID
	}
	return out
}
