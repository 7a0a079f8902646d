package worker

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/extract"
	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/recall"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// Bounds of the related memories an extraction request names.
const (
	relatedRecalled = 15   // memories recalled for the session
	relatedQuery    = 4000 // characters of the session's text recalled for
)

// Related returns the memories and drafts d may say again, update or
// contradict, for [extract.Config.Related]: the memories of the vaults db
// indexes (synced by the caller) recalled for what the person said in the
// session and the files it touched, then the open drafts of in that share
// the most words with it, up to [extract.MaxRelated] in all. Recall is by
// words (BM25) and files; db's own fusion applies when it has more.
func Related(ctx context.Context, db *index.DB, in *consolidate.Inbox, d *transcript.Digest) ([]extract.Related, error) {
	text, files := relatedQueryOf(d)
	results, err := recall.New(db, recall.DefaultConfig()).Recall(ctx, recall.Query{Text: text, Files: files, Limit: relatedRecalled})
	if err != nil {
		return nil, fmt.Errorf("related memories: %w", err)
	}
	var out []extract.Related
	for _, r := range results {
		out = append(out, extract.Related{Name: r.Name, Description: r.Description, Type: r.Type, Where: r.Source})
	}
	if in == nil {
		return out, nil
	}
	drafts, err := in.List()
	if err != nil {
		return out, fmt.Errorf("related drafts: %w", err)
	}
	return append(out, closestDrafts(drafts, text, extract.MaxRelated-len(out))...), nil
}

// relatedQueryOf is what a session is recalled for: the person's words
// (else the start of the digest) and the files it created, edited or read.
// Only the first relatedQuery bytes are put together, whatever the
// session's length.
func relatedQueryOf(d *transcript.Digest) (string, []string) {
	var b strings.Builder
	spoke := false
	for _, s := range d.Said() {
		b.WriteString(s)
		b.WriteByte('\n')
		spoke = spoke || strings.TrimSpace(s) != ""
		if spoke && b.Len() > relatedQuery {
			break // the rest is cut
		}
	}
	text := b.String()
	if !spoke {
		h := &headWriter{max: relatedQuery + 1}
		d.WriteTo(h) // stops at errEnough
		text = h.b.String()
	}
	if len(text) > relatedQuery {
		text = strings.ToValidUTF8(text[:relatedQuery], "")
	}
	fs := d.Files()
	return text, slices.Concat(fs.Created, fs.Edited, fs.Read)
}

// errEnough is what a [headWriter] says once it holds all it keeps.
var errEnough = errors.New("enough written")

// A headWriter keeps the first max bytes written to it and refuses the
// rest, so that what writes to it stops there.
type headWriter struct {
	b   strings.Builder
	max int
}

func (w *headWriter) Write(p []byte) (int, error) {
	n := min(len(p), w.max-w.b.Len())
	w.b.Write(p[:n])
	if n < len(p) {
		return n, errEnough
	}
	return n, nil
}

// closestDrafts returns at most n drafts that share a word with text, the
// most shared first (newest first among equals).
func closestDrafts(drafts []consolidate.Draft, text string, n int) []extract.Related {
	want := wordSet(text)
	type scored struct {
		r      extract.Related
		shared int
		i      int
	}
	var ss []scored
	for i, d := range drafts {
		shared := 0
		for w := range wordSet(d.Memory.Description) {
			if want[w] {
				shared++
			}
		}
		if shared > 0 {
			ss = append(ss, scored{extract.Related{Name: d.Name, Description: d.Memory.Description, Type: d.Memory.Type, Where: "inbox"}, shared, i})
		}
	}
	slices.SortFunc(ss, func(a, b scored) int {
		if a.shared != b.shared {
			return b.shared - a.shared
		}
		return b.i - a.i // List is oldest first
	})
	var out []extract.Related
	for _, s := range ss[:min(len(ss), max(n, 0))] {
		out = append(out, s.r)
	}
	return out
}

// wordSet is the lower-cased words of s that are not stop words.
func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) > 2 && !recall.IsStopWord(w) {
			out[w] = true
		}
	}
	return out
}
