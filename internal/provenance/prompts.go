package provenance

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
)

// Limits of the record of prompts.
const (
	// MaxPromptBytes is how much of one prompt is kept: its head.
	MaxPromptBytes = 16 << 10
	// MaxSessionBytes bounds one session's record; past it the oldest
	// prompts are dropped until half of it is left.
	MaxSessionBytes = 256 << 10
	// MaxAge is how long a session's record is kept after its last prompt.
	MaxAge = 14 * 24 * time.Hour
)

// PromptsDir is the folder of a state folder where the prompts of its
// project's sessions are kept.
func PromptsDir(stateDir string) string { return filepath.Join(stateDir, "prompts") }

// Prompts is the record of what people typed in a project's sessions, one
// file per session, kept so that what an agent writes can be checked
// against what the person said ([Said.Check]). Prompts are redacted before
// they are written, and the files are private to the user (mode 0600).
// Files are appended to by one session at a time; readers see whole lines.
type Prompts struct {
	Dir string
	// Redact removes secrets from a prompt before it is kept.
	Redact func(string) string
}

// record is one line of a session's file.
type record struct {
	At   time.Time `json:"at"`
	Text string    `json:"text"`
}

// file is the record of a session: a hash of its id, so that any id makes
// a safe file name.
func (p Prompts) file(session string) string {
	sum := sha256.Sum256([]byte(session))
	return filepath.Join(p.Dir, hex.EncodeToString(sum[:16])+".jsonl")
}

// Record keeps a prompt of a session: redacted, its head when it is long.
// It drops the session's oldest prompts past [MaxSessionBytes] and deletes
// the records of sessions idle past [MaxAge].
func (p Prompts) Record(session string, at time.Time, text string) error {
	if session == "" || strings.TrimSpace(text) == "" {
		return nil
	}
	if p.Redact != nil {
		text = p.Redact(text)
	}
	if len(text) > MaxPromptBytes {
		text = strings.ToValidUTF8(text[:MaxPromptBytes], "")
	}
	line, err := json.Marshal(record{At: at.UTC(), Text: text})
	if err != nil {
		return fmt.Errorf("provenance: record a prompt: %w", err)
	}
	if err := os.MkdirAll(p.Dir, 0o700); err != nil {
		return fmt.Errorf("provenance: record a prompt: %w", err)
	}
	path := p.file(session)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("provenance: record a prompt: %w", err)
	}
	_, werr := f.Write(append(line, '\n'))
	fi, serr := f.Stat()
	if err := errors.Join(werr, serr, f.Close()); err != nil {
		return fmt.Errorf("provenance: record a prompt: %w", err)
	}
	if fi.Size() > MaxSessionBytes {
		if err := trim(path); err != nil {
			return err
		}
	}
	return p.prune(at)
}

// trim rewrites a session's file with its newest lines, within half of
// [MaxSessionBytes].
func trim(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("provenance: trim %s: %w", filepath.Base(path), err)
	}
	keep := data
	for len(keep) > MaxSessionBytes/2 {
		i := bytes.IndexByte(keep, '\n')
		if i < 0 {
			keep = nil
			break
		}
		keep = keep[i+1:]
	}
	if err := atomicfile.WriteFile(path, keep, 0o600); err != nil {
		return fmt.Errorf("provenance: trim %s: %w", filepath.Base(path), err)
	}
	return nil
}

// prune deletes the records of sessions whose last prompt is older than
// [MaxAge].
func (p Prompts) prune(now time.Time) error {
	entries, err := os.ReadDir(p.Dir)
	if err != nil {
		return fmt.Errorf("provenance: prune prompts: %w", err)
	}
	var errs []error
	for _, e := range entries {
		if !isRecordName(e.Name()) {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > MaxAge {
			if err := os.Remove(filepath.Join(p.Dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("provenance: prune prompts: %w", err)
	}
	return nil
}

func isRecordName(name string) bool {
	hexPart, ok := strings.CutSuffix(name, ".jsonl")
	if !ok || len(hexPart) != 32 {
		return false
	}
	_, err := hex.DecodeString(hexPart)
	return err == nil
}

// Session returns the prompts recorded for a session, oldest first; none
// when it has no record.
func (p Prompts) Session(session string) ([]Statement, error) {
	if session == "" {
		return nil, nil
	}
	f, err := os.Open(p.file(session))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("provenance: read prompts: %w", err)
	}
	defer f.Close()
	return readStatements(f, time.Time{})
}

// Since returns the prompts of every session recorded at or after t,
// oldest first.
func (p Prompts) Since(t time.Time) ([]Statement, error) {
	entries, err := os.ReadDir(p.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("provenance: read prompts: %w", err)
	}
	var out []Statement
	for _, e := range entries {
		if !isRecordName(e.Name()) {
			continue
		}
		f, err := os.Open(filepath.Join(p.Dir, e.Name()))
		if err != nil {
			continue // pruned meanwhile
		}
		ss, err := readStatements(f, t)
		f.Close()
		if err != nil {
			return nil, err
		}
		out = append(out, ss...)
	}
	slices.SortStableFunc(out, func(a, b Statement) int { return a.At.Compare(b.At) })
	return out, nil
}

// readStatements decodes a session's record, keeping the prompts at or
// after since. It reads at most twice [MaxSessionBytes]; a line that is
// not a record (a torn write, a hand edit) is skipped.
func readStatements(r io.Reader, since time.Time) ([]Statement, error) {
	sc := bufio.NewScanner(io.LimitReader(r, 2*MaxSessionBytes))
	sc.Buffer(make([]byte, 0, 64<<10), MaxSessionBytes)
	var out []Statement
	for sc.Scan() {
		var rec record
		if json.Unmarshal(sc.Bytes(), &rec) != nil || rec.Text == "" || !utf8.ValidString(rec.Text) || rec.At.Before(since) {
			continue
		}
		out = append(out, Statement{Text: rec.Text, At: rec.At})
	}
	if err := sc.Err(); err != nil && !errors.Is(err, bufio.ErrTooLong) {
		return out, fmt.Errorf("provenance: read prompts: %w", err)
	}
	return out, nil
}
