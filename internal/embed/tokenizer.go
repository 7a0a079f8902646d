package embed

import (
	"strings"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/embed/packfile"
)

// reserved is the number of vocabulary entries the tokenizer never
// produces except the first, the id of every unknown character.
const reserved = 6

// maxRunes bounds the text tokenized: far past [MaxTokens] tokens, so the
// tokens the encoder reads are those of the whole text, and a huge input
// cannot make tokenizing slow.
const maxRunes = 64 * MaxTokens

// separator marks a word's start, as SentencePiece writes it.
const separator = "\u2581"

// A tokenizer cuts text into SentencePiece ids by the reference
// implementation's Viterbi search (@energetic-ai/embeddings 0.2.0,
// lib/tokenizer.ts), quirks included: a position no piece ends at counts
// as score 0, ties go to the later (shorter) piece, and runs of unknown
// characters become one unknown id.
type tokenizer struct {
	// ids maps a piece's text to its id (a repeated piece keeps its last
	// id); once starts is set, also each text that is only the start of
	// longer pieces, cut between characters, to notPiece (see
	// [tokenizer.indexStarts]).
	ids    map[string]int32
	starts bool
	score  []float64       // by id
	runes  []int           // piece length in characters, by id
	seps   []int           // separators in the piece, by id
	most   int             // the longest piece, in characters
	compat map[rune]string // NFKC mappings (see nfkc.go)
}

func newTokenizer(pieces []packfile.Piece, compat map[rune]string) *tokenizer {
	t := &tokenizer{
		ids:    make(map[string]int32, len(pieces)),
		score:  make([]float64, len(pieces)),
		runes:  make([]int, len(pieces)),
		seps:   make([]int, len(pieces)),
		compat: compat,
	}
	for i, p := range pieces {
		t.score[i] = p.Score
		t.runes[i] = utf8.RuneCountInString(p.Text)
		t.seps[i] = strings.Count(p.Text, separator)
		if i >= reserved && p.Text != "" {
			t.ids[p.Text] = int32(i)
			t.most = max(t.most, t.runes[i])
		}
	}
	return t
}

// indexStarts adds to t.ids the texts that only start pieces, so that
// the search for the pieces starting at a character stops at the first
// text no piece starts with, rather than trying every length up to the
// longest piece's: a query's pieces are then found in a third of the
// time. The ids found are the same. It takes several milliseconds, which
// a model loaded for one question (a hook's) would not win back; a
// resident one does. t must not be in use.
func (t *tokenizer) indexStarts(pieces []packfile.Piece) {
	for _, p := range pieces[min(reserved, len(pieces)):] {
		for j := range p.Text {
			if _, ok := t.ids[p.Text[:j]]; j > 0 && !ok {
				t.ids[p.Text[:j]] = notPiece
			}
		}
	}
	t.starts = true
}

// notPiece is the id in tokenizer.ids of a text that only starts pieces.
const notPiece = -1

// A match is a piece that ends at some position and starts at start.
type match struct {
	start int
	id    int32
}

// encode returns the ids of text's pieces, in order.
func (t *tokenizer) encode(text string) []int32 {
	s := t.prepare(text)
	if s == "" {
		return nil
	}
	// off[i] is the byte offset of character i; off[n] is len(s).
	off := make([]int, 0, len(s)+1)
	for i := range s {
		off = append(off, i)
	}
	n := len(off)
	off = append(off, len(s))

	ending := make([][]match, n+1) // by end position, starts ascending
	for i := range n {
		found := false
		for l := 1; l <= t.most && i+l <= n; l++ {
			id, ok := t.ids[s[off[i]:off[i+l]]]
			if !ok && t.starts {
				break // no piece starts with it, so none is longer
			}
			if ok && id != notPiece {
				ending[i+l] = append(ending[i+l], match{i, id})
				found = true
			}
		}
		if !found {
			ending[i+1] = append(ending[i+1], match{i, 0})
		}
	}

	best := make([]float64, n+1)
	word := make([]int32, n+1)
	for end := 1; end <= n; end++ {
		for _, m := range ending[end] {
			sc := best[m.start]
			if m.id != 0 {
				sc += t.score[m.id]
			}
			if best[end] == 0 || sc >= best[end] {
				best[end], word[end] = sc, m.id
			}
		}
	}

	var ids []int32
	for i := n; i > 0; i -= t.runes[word[i]] {
		ids = append(ids, word[i])
	}
	merged := make([]int32, 0, len(ids))
	prevUnknown := false
	for _, id := range ids {
		if id != 0 || !prevUnknown {
			merged = append(merged, id)
		}
		prevUnknown = id == 0
	}
	for i, j := 0, len(merged)-1; i < j; i, j = i+1, j-1 {
		merged[i], merged[j] = merged[j], merged[i]
	}
	return merged
}

// prepare normalizes text as the reference does: NFKC, then a separator
// before the text and in place of every space.
func (t *tokenizer) prepare(text string) string {
	var b strings.Builder
	b.Grow(len(text) + 3)
	n := 0
	for _, r := range text {
		if n++; n > maxRunes {
			break
		}
		if m, ok := t.compat[r]; ok {
			b.WriteString(m)
		} else {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return separator + strings.ReplaceAll(b.String(), " ", separator)
}

// readable returns the share of text's characters, separators left out,
// that its known pieces of two characters or more spell: near 1 for plain
// English, near 0 for a script the vocabulary has only single letters of
// (Cyrillic) or none at all (Chinese).
func (t *tokenizer) readable(text string) float64 {
	return t.readableAs(text, t.encode(text))
}

// readableAs is [tokenizer.readable] of text cut into ids.
func (t *tokenizer) readableAs(text string, ids []int32) float64 {
	all := 0
	for _, r := range t.prepare(text) {
		if string(r) != separator {
			all++
		}
	}
	if all == 0 {
		return 0
	}
	known := 0
	for _, id := range ids {
		if n := t.runes[id] - t.seps[id]; id != 0 && n >= 2 {
			known += n
		}
	}
	return float64(known) / float64(all)
}
