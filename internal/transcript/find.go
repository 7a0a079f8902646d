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
			out = append(out, m...)
		}
	}
	return out, nil
}
