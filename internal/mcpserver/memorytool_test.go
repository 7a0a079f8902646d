package mcpserver_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const pnpmFile = "---\nname: use-pnpm\ndescription: The frontend uses pnpm\ntype: project\n---\nRun pnpm install.\nNever npm.\n"

// TestMemoryToolAnswers checks each command's answer, word for word, as
// Anthropic's memory tool gives it (the SDKs' reference implementations).
func TestMemoryToolAnswers(t *testing.T) {
	f := newFixture(t, map[string]string{".memory/use-pnpm.md": pnpmFile})
	f.prompt("s", "Deploys go out on Tuesdays; the release train leaves at 10:00 UTC.")
	f.prompt("s", "Note that the lockfile is pnpm-lock.yaml.") // the value the insert below writes
	size := func(name string) string {
		fi, err := os.Stat(f.path(name))
		if err != nil {
			t.Fatal(err)
		}
		return formatSizeForTest(fi.Size())
	}
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"view a file", map[string]any{"command": "view", "path": "/memories/use-pnpm.md"},
			"Here's the content of /memories/use-pnpm.md with line numbers:\n" +
				"     1\t---\n     2\tname: use-pnpm\n     3\tdescription: The frontend uses pnpm\n     4\ttype: project\n" +
				"     5\t---\n     6\tRun pnpm install.\n     7\tNever npm.\n     8\t"},
		{"view a range", map[string]any{"command": "view", "path": "/memories/use-pnpm.md", "view_range": []int{6, -1}},
			"Here's the content of /memories/use-pnpm.md with line numbers:\n     6\tRun pnpm install.\n     7\tNever npm.\n     8\t"},
		{"view the folder", map[string]any{"command": "view", "path": "/memories"},
			"Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n" +
				size(".memory") + "\t/memories\n" + size(".memory/MEMORY.md") + "\t/memories/MEMORY.md\n" +
				size(".memory/use-pnpm.md") + "\t/memories/use-pnpm.md"},
		{"str_replace", map[string]any{"command": "str_replace", "path": "/memories/use-pnpm.md", "old_str": "Never npm.", "new_str": "Never npm or yarn."},
			"The memory file has been edited. Here is the snippet showing the change (with line numbers):\n" +
				"     5\t---\n     6\tRun pnpm install.\n     7\tNever npm or yarn.\n     8\t"},
		{"insert", map[string]any{"command": "insert", "path": "/memories/use-pnpm.md", "insert_line": 6, "insert_text": "The lockfile is pnpm-lock.yaml.\n"},
			"The file /memories/use-pnpm.md has been edited."},
		{"create", map[string]any{"command": "create", "path": "/memories/deploy-notes.md", "file_text": "# Deploys go out on Tuesdays\nThe release train leaves at 10:00 UTC.\n"},
			"File created successfully at: /memories/deploy-notes.md"},
		{"rename", map[string]any{"command": "rename", "old_path": "/memories/deploy-notes.md", "new_path": "/memories/deploy-schedule.md"},
			"Successfully renamed /memories/deploy-notes.md to /memories/deploy-schedule.md"},
		{"delete", map[string]any{"command": "delete", "path": "/memories/deploy-schedule.md"},
			"Successfully deleted /memories/deploy-schedule.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.call("memory", tt.args)
			if got := textOf(res); res.IsError || got != tt.want {
				t.Errorf("memory(%v) = %q (error %v), want %q", tt.args, got, res.IsError, tt.want)
			}
			if res.StructuredContent != nil {
				t.Errorf("memory(%v) has structuredContent; Claude Code would show it instead of the text", tt.args)
			}
		})
	}
	if got := f.read(".memory/use-pnpm.md"); !strings.Contains(got, "Run pnpm install.\nThe lockfile is pnpm-lock.yaml.\nNever npm or yarn.\n") {
		t.Errorf("use-pnpm.md after the edits:\n%s", got)
	}
	if f.exists(".memory/deploy-notes.md") || f.exists(".memory/deploy-schedule.md") {
		t.Error("rename or delete left a file behind")
	}
	if moved, _ := filepath.Glob(filepath.Join(f.state, "forgotten", "deploy-schedule.*.md")); len(moved) != 1 {
		t.Errorf("delete kept no recoverable copy: %v", moved)
	}
}

// formatSizeForTest is the size format of Anthropic's tool (bytes under
// 1 KiB, else K with one decimal unless whole), written out again so that
// a change to the server's shows here.
func formatSizeForTest(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%dB", n)
	}
	k := float64(n) / 1024
	if k == math.Trunc(k) {
		return fmt.Sprintf("%dK", int64(k))
	}
	return fmt.Sprintf("%.1fK", k)
}

// TestMemoryToolCreateHeader checks that a file created without a header
// gets one, and that one with a header keeps it.
func TestMemoryToolCreateHeader(t *testing.T) {
	f := newFixture(t, nil)
	f.prompt("s", "The release freeze starts next month, fixes only from then on. I write Go, Go first.")
	f.ok("memory", map[string]any{"command": "create", "path": "/memories/release-freeze.md",
		"file_text": "## The release freeze starts next month\nFixes only from then on.\n"}, nil)
	m := f.load("release-freeze")
	if m.Name != "release-freeze" || m.Description != "The release freeze starts 2026-12" || m.Type != "project" ||
		m.Source != "agent" || !m.Created.Equal(now) || m.Body != "## The release freeze starts 2026-12\nFixes only from then on.\n" {
		t.Errorf("created memory = %+v %q", m.Header, m.Body)
	}
	if !strings.Contains(f.read(".memory/MEMORY.md"), "[release-freeze](release-freeze.md)") {
		t.Error("MEMORY.md does not list the created memory")
	}
	f.ok("memory", map[string]any{"command": "create", "path": "/memories/user-likes-go.md",
		"file_text": "---\ndescription: The user writes Go\ntype: user\nowner: me\n---\nGo first.\n"}, nil)
	if got := f.read(".memory/user-likes-go.md"); !strings.Contains(got, "owner: me") || !strings.Contains(got, "name: user-likes-go") {
		t.Errorf("created with a header:\n%s", got)
	}
}

// TestMemoryToolErrors checks the failures, worded as Anthropic's tool
// words them where it has the case, and that none of them writes.
func TestMemoryToolErrors(t *testing.T) {
	f := newFixture(t, map[string]string{
		".memory/use-pnpm.md": pnpmFile,
		".memory/twice.md":    "---\nname: twice\ndescription: Twice\ntype: project\n---\nsame\nsame\n",
	})
	tests := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"command": "view", "path": "/memories/nope.md"}, "The path /memories/nope.md does not exist. Please provide a valid path."},
		{map[string]any{"command": "view", "path": "/memories/notes.txt"}, "The path /memories/notes.txt does not exist. Please provide a valid path."},
		{map[string]any{"command": "create", "path": "/memories/use-pnpm.md", "file_text": "x"}, "File /memories/use-pnpm.md already exists"},
		{map[string]any{"command": "str_replace", "path": "/memories/use-pnpm.md", "old_str": "yarn", "new_str": "x"},
			"No replacement was performed, old_str `yarn` did not appear verbatim in /memories/use-pnpm.md."},
		{map[string]any{"command": "str_replace", "path": "/memories/twice.md", "old_str": "same", "new_str": "x"},
			"No replacement was performed. Multiple occurrences of old_str `same` in lines: 6, 7. Please ensure it is unique"},
		{map[string]any{"command": "str_replace", "path": "/memories/nope.md", "old_str": "a", "new_str": "b"},
			"The path /memories/nope.md does not exist. Please provide a valid path."},
		{map[string]any{"command": "insert", "path": "/memories/use-pnpm.md", "insert_line": 99, "insert_text": "x"},
			"Invalid `insert_line` parameter: 99. It should be within the range of lines of the file: [0, 8]"},
		{map[string]any{"command": "delete", "path": "/memories/nope.md"}, "The path /memories/nope.md does not exist"},
		{map[string]any{"command": "delete", "path": "/memories"}, "Cannot delete the /memories directory itself"},
		{map[string]any{"command": "rename", "old_path": "/memories/use-pnpm.md", "new_path": "/memories/twice.md"}, "The destination /memories/twice.md already exists"},
		{map[string]any{"command": "rename", "old_path": "/memories/nope.md", "new_path": "/memories/other.md"}, "The path /memories/nope.md does not exist"},
		{map[string]any{"command": "str_replace", "path": "/memories/use-pnpm.md", "old_str": "name: use-pnpm", "new_str": "name: other"}, "would not be a valid memory file"},
		{map[string]any{"command": "insert", "path": "/memories/use-pnpm.md", "insert_line": 0, "insert_text": "oops"}, "would not be a valid memory file"},
		{map[string]any{"command": "str_replace", "path": "/memories/MEMORY.md", "old_str": "#", "new_str": "x"}, "read-only"},
		{map[string]any{"command": "create", "path": "/memories/Notes File.txt", "file_text": "x"}, "is not a memory file: use /memories/<name>.md"},
		{map[string]any{"command": "create", "path": "/memories/x.md", "file_text": "---\nname: y\n---\n"}, "a memory's name is its file name"},
		{map[string]any{"command": "forget"}, "forget does not equal any of"},
	}
	before := snapshot(t, f)
	for _, tt := range tests {
		if got := f.fail("memory", tt.args); !strings.Contains(got, tt.want) {
			t.Errorf("memory(%v) error = %q, want %q", tt.args, got, tt.want)
		}
	}
	if after := snapshot(t, f); after != before {
		t.Errorf("failed commands changed the vault:\nbefore %s\nafter  %s", before, after)
	}
}

// TestMemoryToolConfinement tries to leave the vault every way a path can.
func TestMemoryToolConfinement(t *testing.T) {
	f := newFixture(t, map[string]string{".memory/use-pnpm.md": pnpmFile})
	outside := filepath.Join(filepath.Dir(f.root), "secret.md")
	if err := os.WriteFile(outside, []byte("---\nname: secret\ndescription: s\ntype: project\n---\nTOP SECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, f.path(".memory/leak.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(f.path(".memory/sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	escape := "would escape /memories directory"
	paths := []struct{ path, want string }{
		{"/etc/passwd", "Path must start with /memories, got: /etc/passwd"},
		{"memories/use-pnpm.md", "Path must start with /memories"},
		{"/memoriesX/a.md", "Path must start with /memories"},
		{"/memories/../secret.md", escape},
		{"/memories/..", escape},
		{"/memories/%2e%2e/secret.md", escape},
		{"/memories/..%2fsecret.md", escape},
		{"/memories/%2E%2E%2Fsecret.md", escape},
		{"/memories/..\\secret.md", escape},
		{"/memories/use-pnpm.md%00", escape},
		{"/memories/./use-pnpm.md", escape},
		{"/memories/sub/x.md", "without subfolders"},
		{"/memories/sub", "without subfolders"},
		{"/memories/leak.md", "Path would escape /memories directory via symlink"},
	}
	for _, p := range paths {
		for _, args := range []map[string]any{
			{"command": "view", "path": p.path},
			{"command": "create", "path": p.path, "file_text": "pwned"},
			{"command": "str_replace", "path": p.path, "old_str": "TOP SECRET", "new_str": "pwned"},
			{"command": "insert", "path": p.path, "insert_line": 1, "insert_text": "pwned"},
			{"command": "delete", "path": p.path},
			{"command": "rename", "old_path": "/memories/use-pnpm.md", "new_path": p.path},
			{"command": "rename", "old_path": p.path, "new_path": "/memories/stolen.md"},
		} {
			res := f.call("memory", args)
			got := textOf(res)
			if !res.IsError || strings.Contains(got, "TOP SECRET") {
				t.Errorf("memory(%v) = %q, want it refused", args, got)
			} else if args["command"] == "view" && !strings.Contains(got, p.want) {
				t.Errorf("memory(%v) error = %q, want %q", args, got, p.want)
			}
		}
	}
	if data, _ := os.ReadFile(outside); !strings.Contains(string(data), "TOP SECRET") || strings.Contains(string(data), "pwned") {
		t.Errorf("the file outside the vault changed:\n%s", data)
	}
	for _, p := range []string{"secret.md", "stolen.md", "pwned"} {
		if _, err := os.Stat(filepath.Join(filepath.Dir(f.root), p)); p != "secret.md" && err == nil {
			t.Errorf("%s was written outside the vault", p)
		}
	}
	if !f.exists(".memory/use-pnpm.md") || f.exists(".memory/stolen.md") {
		t.Error("a refused rename moved a file")
	}
}

// TestMemoryViewFolderStaysInVault: listing /memories shows nothing of
// what lies outside the vault (a symlink's target, its size), and no file
// name can forge a line of the listing.
func TestMemoryViewFolderStaysInVault(t *testing.T) {
	f := newFixture(t, map[string]string{".memory/use-pnpm.md": pnpmFile})
	outside := filepath.Join(filepath.Dir(f.root), "big-secret.md")
	if err := os.WriteFile(outside, []byte(strings.Repeat("s", 7*1024)), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"leak.md": outside, "gone.md": outside + ".missing", "alias.md": "use-pnpm.md"} {
		if err := os.Symlink(target, f.path(".memory/"+link)); err != nil {
			t.Fatal(err)
		}
	}
	forged := "x.md\n7K\tforged.md"
	if err := os.WriteFile(f.path(".memory/"+forged), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	token := "xoxb-" + strings.Repeat("7302", 3) + "-" + strings.Repeat("a9Kq", 6) // a Slack token, joined
	if err := os.WriteFile(f.path(".memory/"+token+".md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := f.ok("memory", map[string]any{"command": "view", "path": "/memories"}, nil)
	for _, bad := range []string{"leak.md", "gone.md", "7K", "forged", token} {
		if strings.Contains(got, bad) {
			t.Errorf("view /memories = %q, want nothing of %q", got, bad)
		}
	}
	if !strings.Contains(got, "/memories/use-pnpm.md") || !strings.Contains(got, "/memories/alias.md") {
		t.Errorf("view /memories = %q, want use-pnpm.md and the link inside the vault, alias.md", got)
	}
}

// snapshot is the vault's file names and sizes.
func snapshot(t *testing.T, f *fixture) string {
	t.Helper()
	des, err := os.ReadDir(f.path(".memory"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, de := range des {
		fi, _ := de.Info()
		fmt.Fprintf(&b, "%s:%d ", de.Name(), fi.Size())
	}
	return b.String()
}
