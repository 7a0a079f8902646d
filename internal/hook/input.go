package hook

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// MaxInput is how much of stdin a hook reads; an event is a few KB, and a
// larger input is read no further (and decoded as far as it parses).
const MaxInput = 16 << 20

// Input is the JSON an agent sends a hook on stdin. Every field is optional:
// agents add fields between versions and leave some out.
type Input struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	HookEventName  string `json:"hook_event_name"`
	Source         string `json:"source"` // SessionStart: startup|resume|clear|compact|fork; UserPromptSubmit: user|sdk|system|…
	Prompt         string `json:"prompt"` // UserPromptSubmit (BeforeAgent in Gemini CLI)
	Trigger        string `json:"trigger"`
	Reason         string `json:"reason"`

	// Cursor names the session conversation_id and the folders workspace_roots.
	ConversationID string   `json:"conversation_id"`
	WorkspaceRoots []string `json:"workspace_roots"`
}

// Decode reads a hook's input: the first JSON value on r, so that a
// writer that keeps its end open after the object is not waited for. It
// never fails: what cannot be read is reported in err for the log, and the
// fields that could be read are kept.
func Decode(r io.Reader) (in Input, err error) {
	// Decode field by field, so that one field of an unexpected type (a
	// number where a string was) does not lose the others.
	var raw map[string]json.RawMessage
	if err := json.NewDecoder(io.LimitReader(r, MaxInput)).Decode(&raw); errors.Is(err, io.EOF) {
		return in, nil // no input
	} else if err != nil {
		return in, fmt.Errorf("decode input: %w", err)
	}
	str := func(key string, dst *string) {
		if v, ok := raw[key]; ok {
			json.Unmarshal(v, dst) // a wrong type leaves it empty
		}
	}
	str("session_id", &in.SessionID)
	str("transcript_path", &in.TranscriptPath)
	str("cwd", &in.Cwd)
	str("hook_event_name", &in.HookEventName)
	str("source", &in.Source)
	str("prompt", &in.Prompt)
	in.Prompt = transcript.WithoutAdded(in.Prompt) // mnemo's own context before a Gemini CLI prompt, @files' content after it
	str("trigger", &in.Trigger)
	str("reason", &in.Reason)
	str("conversation_id", &in.ConversationID)
	if v, ok := raw["workspace_roots"]; ok {
		json.Unmarshal(v, &in.WorkspaceRoots)
	}
	if in.SessionID == "" {
		in.SessionID = in.ConversationID
	}
	in.SessionID = sessionID(in.SessionID)
	if in.Cwd == "" && len(in.WorkspaceRoots) > 0 {
		in.Cwd = in.WorkspaceRoots[0]
	}
	return in, nil
}

// maxSessionID bounds a session id taken as it is: agents send UUIDs.
const maxSessionID = 128

// sessionID returns id when it is a plain one (at most [maxSessionID]
// bytes of text without control characters), else "sha256-" and 32 hex
// digits of its digest: the same id always gives the same name, so the
// events of one session still meet in the queue, and no terminal escape
// or megabyte of it reaches the queue, 'mnemo queue list' or the log.
func sessionID(id string) string {
	if len(id) <= maxSessionID && utf8.ValidString(id) && !strings.ContainsFunc(id, unicode.IsControl) {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	return "sha256-" + hex.EncodeToString(sum[:16])
}
