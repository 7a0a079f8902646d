package transcript

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/safefile"
)

// CodexSessions returns the Codex CLI rollout files under dir
// (~/.codex/sessions) of the sessions that ran in root or a folder below
// it, as their session_meta line says. A missing dir holds none.
func CodexSessions(dir, root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == dir && os.IsNotExist(err) {
				return filepath.SkipDir
			}
			return err
		}
		name := d.Name()
		if d.IsDir() || !strings.HasPrefix(name, "rollout-") || !strings.HasSuffix(name, ".jsonl") {
			return nil
		}
		if cwd := codexCWD(path); cwd != "" && within(root, cwd) {
			out = append(out, path)
		}
		return nil
	})
	return out, err
}

// codexCWD reads the folder a rollout file's session ran in from its
// session_meta line, the first, however long (Codex 0.171 inlines its base
// instructions there); "" when it has none.
func codexCWD(path string) string {
	f, _, err := safefile.Open(path, MaxFileSize) // a FIFO or a device is refused, never waited on
	if err != nil {
		return ""
	}
	defer f.Close()
	var w struct {
		Type    string `json:"type"`
		Payload struct {
			CWD string `json:"cwd"`
		} `json:"payload"`
	}
	if json.NewDecoder(bufio.NewReader(f)).Decode(&w) != nil || w.Type != "session_meta" {
		return ""
	}
	return w.Payload.CWD
}

// within reports whether path is root or a folder below it.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// GeminiSessions returns the Gemini CLI session files of the project at
// root under dir (~/.gemini). Gemini CLI keeps them in tmp/<slug>/chats/
// (0.61: a slug of the folder's name, with tmp/<slug>/.project_root
// holding the project's path), earlier in tmp/<SHA-256 of the path>/chats/;
// a session is session-*.jsonl (a record log) or session-*.json.
func GeminiSessions(dir, root string) ([]string, error) {
	sum := sha256.Sum256([]byte(root))
	dirs := []string{filepath.Join(dir, "tmp", hex.EncodeToString(sum[:]))}
	marks, err := filepath.Glob(filepath.Join(dir, "tmp", "*", ".project_root"))
	if err != nil {
		return nil, err
	}
	for _, m := range marks {
		if data, err := os.ReadFile(m); err == nil && strings.TrimSpace(string(data)) == root {
			dirs = append(dirs, filepath.Dir(m))
		}
	}
	var out []string
	for _, d := range dirs {
		for _, pat := range []string{"session-*.jsonl", "session-*.json"} {
			m, err := filepath.Glob(filepath.Join(d, "chats", pat))
			if err != nil {
				return nil, err
			}
			for _, f := range m {
				if GeminiOriginal(f) == f { // a resume's new file holds nothing of its own
					out = append(out, f)
				}
			}
		}
	}
	return out, nil
}

// isGeminiName reports whether a file name is a Gemini CLI session's.
func isGeminiName(name string) bool {
	return strings.HasPrefix(name, "session-") && (strings.HasSuffix(name, ".jsonl") || strings.HasSuffix(name, ".json"))
}

// GeminiOriginal returns the file a Gemini CLI session is recorded in,
// given any file of it. A resumed session goes on in its original file,
// session-<start minute>-<first 8 of the id>.jsonl, while the CLI also
// starts a new file named for the minute of the resume (which holds only
// the first records) and names that one to SessionStart: the original is
// the session's oldest file, found by its id in the same folder. A path
// that is not a Gemini session file is returned as it is.
func GeminiOriginal(path string) string {
	name := filepath.Base(path)
	if !isGeminiName(name) {
		return path
	}
	id := GeminiSessionID(path)
	if len(id) < 8 {
		return path
	}
	m, err := filepath.Glob(filepath.Join(filepath.Dir(path), "session-*-"+id[:8]+".json*"))
	if err != nil {
		return path
	}
	for _, f := range m { // sorted, and the names start with the minute: oldest first
		if f == path || isGeminiName(filepath.Base(f)) && GeminiSessionID(f) == id {
			return f
		}
	}
	return path
}
