package hook

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/safefile"
	"github.com/mnemo-dev/mnemo/internal/transcript"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// A session is what one agent session has been given, from the injection
// records, and what this hook gives it: a memory is given once, whole or
// as its index line, and a memory that says the same fact as one given
// whole counts as given.
type session struct {
	given   map[index.Key]index.Given // before this hook
	planned map[index.Key]bool        // bodies this hook means to give
	only    map[index.Key]bool        // when set, the only memories this hook may give (a resume: those new since)
	whole   []*consolidate.Text       // texts of the memories the session has whole
	bodies  []index.Key               // given whole by this hook (or the same fact as one)
	lines   []index.Key               // given as a line by this hook
}

// openSession reads what the session was given. After a compaction, what
// the summary dropped counts as not given: the session lost it. So does
// everything on a resume that loses the hooks' context (lostOnResume): the
// session is given again, once, what a start gives, and the injection
// records, which keep the first time, then say it was given.
func openSession(ctx context.Context, db *index.DB, in Input, lostOnResume bool) (*session, error) {
	s := &session{given: map[index.Key]index.Given{}, planned: map[index.Key]bool{}}
	if in.SessionID == "" {
		return s, nil
	}
	given, err := db.Given(ctx, in.SessionID)
	if err != nil {
		return nil, err
	}
	s.given = given
	if in.Source == "resume" && lostOnResume {
		clear(s.given)
	}
	if in.Source == "compact" {
		summary := strings.ToLower(compactSummary(in.TranscriptPath))
		for k := range s.given {
			if !strings.Contains(summary, k.Name) {
				delete(s.given, k)
			}
		}
	}
	return s, nil
}

// has reports whether the session has the memory, in any form.
func (s *session) has(k index.Key) bool {
	_, ok := s.given[k]
	return ok
}

// learn notes the texts of the memories of docs the session has whole, so
// that [session.fresh] knows their near duplicates.
func (s *session) learn(docs []index.Doc) {
	for _, d := range docs {
		if g, ok := s.given[d.Key]; ok && g.Whole {
			s.whole = append(s.whole, docText(d))
		}
	}
}

// fresh returns the first n of docs the session does not have, counting a
// memory that says the same fact as one it has as had (and recording it so,
// for the hooks that come later), and plans their bodies.
func (s *session) fresh(docs []index.Doc, n int) []index.Doc {
	var out []index.Doc
	for _, d := range docs {
		if len(out) == n {
			break
		}
		if s.has(d.Key) || s.planned[d.Key] {
			continue
		}
		text := docText(d)
		if s.repeats(text) {
			s.given[d.Key] = index.Given{Whole: true}
			s.bodies = append(s.bodies, d.Key)
			continue
		}
		s.planned[d.Key] = true
		s.whole = append(s.whole, text)
		out = append(out, d)
	}
	return out
}

// repeats reports whether text says the same fact as a memory the session has.
func (s *session) repeats(text *consolidate.Text) bool {
	for _, w := range s.whole {
		if w.SameFact(text) {
			return true
		}
	}
	return false
}

// gaveBody records that a memory was given whole.
func (s *session) gaveBody(k index.Key) { s.bodies = append(s.bodies, k) }

// newLines returns the index lines of a vault the session has not been
// given in any form and is not about to get whole, with their keys. The
// overflow line is for a session given nothing yet.
func (s *session) newLines(source string, lines []string) ([]string, []index.Key) {
	var out []string
	var keys []index.Key
	for _, l := range lines {
		name, ok := vault.LineName(l)
		if !ok {
			if len(s.given) == 0 {
				out = append(out, l)
				keys = append(keys, index.Key{})
			}
			continue
		}
		k := index.Key{Source: source, Name: name}
		if s.has(k) || s.planned[k] || s.only != nil && !s.only[k] {
			continue
		}
		out = append(out, l)
		keys = append(keys, k)
	}
	return out, keys
}

// gaveLines records the first n of keys as given as lines.
func (s *session) gaveLines(keys []index.Key, n int) {
	for _, k := range keys[:n] {
		if k != (index.Key{}) {
			s.lines = append(s.lines, k)
		}
	}
}

// docText is a memory's text as consolidation compares it.
func docText(d index.Doc) *consolidate.Text {
	return consolidate.NewText(d.Description + "\n" + d.Body)
}

// summaryTail is how much of the end of a transcript is searched for the
// summary of the compaction that just happened: it is written last.
const summaryTail = 4 << 20

// compactSummary returns the last compaction summary line of a transcript,
// as written (JSON), or "" when there is none to be read: then the
// compaction counts as having dropped everything.
func compactSummary(path string) string {
	f, fi, err := safefile.Open(path, transcript.MaxFileSize) // a FIFO or a device is refused, never waited on
	if err != nil {
		return ""
	}
	defer f.Close()
	if fi.Size() > summaryTail {
		f.Seek(fi.Size()-summaryTail, io.SeekStart)
	}
	r := bufio.NewReader(io.LimitReader(f, summaryTail)) // a file growing as it is read
	last := ""
	for {
		line, err := r.ReadBytes('\n')
		if bytes.Contains(line, []byte(`"isCompactSummary":true`)) {
			last = string(line)
		}
		if err != nil {
			return last
		}
	}
}
