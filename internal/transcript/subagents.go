package transcript

import (
	"bufio"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/safefile"
)

// SubagentFiles returns the sub-agent transcripts of the session whose main
// transcript is at path, sorted: <session>/subagents/agent-*.jsonl beside
// it, and, as older versions wrote them, agent-*.jsonl files in the same
// folder whose first line names the same session; for a Gemini CLI
// session, chats/<session id>/*.jsonl. A session without sub-agents has
// none; that is not an error.
func SubagentFiles(path string) ([]string, error) {
	dir := filepath.Dir(path)
	if isGeminiName(filepath.Base(path)) {
		id := GeminiSessionID(path)
		if id == "" || !filepath.IsLocal(id) {
			return nil, nil
		}
		files, err := filepath.Glob(filepath.Join(dir, id, "*.jsonl"))
		if err != nil {
			return nil, fmt.Errorf("transcript: list sub-agents of %s: %w", path, err)
		}
		return files, nil // Glob sorts
	}
	session := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	files, err := filepath.Glob(filepath.Join(dir, session, "subagents", "agent-*.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("transcript: list sub-agents of %s: %w", path, err)
	}
	legacy, err := filepath.Glob(filepath.Join(dir, "agent-*.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("transcript: list sub-agents of %s: %w", path, err)
	}
	for _, f := range legacy {
		if firstSessionID(f) == session {
			files = append(files, f)
		}
	}
	slices.Sort(files)
	return files, nil
}

// firstSessionID returns the sessionId of the first line of the file that
// has one, looking at a few lines only; "" when it cannot tell.
func firstSessionID(path string) string {
	f, _, err := safefile.Open(path, MaxFileSize) // a FIFO or a device is refused, never waited on
	if err != nil {
		return ""
	}
	defer f.Close()
	br := bufio.NewReader(f)
	for range 8 {
		line, err := br.ReadSlice('\n')
		var w struct {
			SessionID string `json:"sessionId"`
		}
		if json.Unmarshal(line, &w) == nil && w.SessionID != "" {
			return w.SessionID
		}
		if err != nil {
			return "" // end of file, or a first line too long to be worth reading
		}
	}
	return ""
}
