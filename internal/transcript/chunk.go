package transcript

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// minChunkRunes is the least room for content a chunk gets, whatever the
// budget: a budget smaller than the header plus 50 tokens yields chunks
// over it.
const minChunkRunes = 200

// A Chunk is a piece of a digest's text that fits a token budget. Each
// chunk starts with the digest's header and a "chunk: i/n" line.
type Chunk struct {
	Text   string
	Tokens int // estimated with memory.EstimateTokens
	First  int // index of the first turn it holds, 0 when it holds only the files and failures sections
	Last   int // index of the last turn it holds
}

// Chunks splits the digest into pieces of at most budget tokens each, at
// turn boundaries. A turn larger than a chunk is split at line ends, its
// later pieces headed "## turn N (continued)"; a single line larger than a
// chunk is cut. The files and failures sections go last. When the digest
// fits, there is one chunk.
func (d *Digest) Chunks(budget int) []Chunk {
	type piece struct {
		text string
		turn int
	}
	room := budget*4 - utf8.RuneCountInString(d.header("9999/9999")) - 1
	room = max(room, minChunkRunes)

	var pieces []piece
	for i, block := range d.blocks() {
		turn := 0
		if i < len(d.Turns) {
			turn = d.Turns[i].Index
		}
		for _, p := range splitBlock(block, room) {
			pieces = append(pieces, piece{p, turn})
		}
	}

	type group struct {
		pieces      []string
		first, last int
	}
	var groups []group
	used := room + 1 // forces a new group for the first piece
	for _, p := range pieces {
		n := utf8.RuneCountInString(p.text) + 1 // and the blank line before it
		if used+n > room || len(groups) == 0 {
			groups = append(groups, group{})
			used = 0
		}
		g := &groups[len(groups)-1]
		g.pieces = append(g.pieces, p.text)
		if p.turn > 0 {
			if g.first == 0 {
				g.first = p.turn
			}
			g.last = p.turn
		}
		used += n
	}
	if len(groups) == 0 {
		groups = append(groups, group{})
	}

	chunks := make([]Chunk, len(groups))
	for i, g := range groups {
		var b strings.Builder
		b.WriteString(d.header(strconv.Itoa(i+1) + "/" + strconv.Itoa(len(groups))))
		for _, p := range g.pieces {
			b.WriteByte('\n')
			b.WriteString(p)
		}
		text := b.String()
		chunks[i] = Chunk{Text: text, Tokens: memory.EstimateTokens(text), First: g.first, Last: g.last}
	}
	return chunks
}

// splitBlock cuts a rendered block into pieces of at most room runes each
// (a blank line included), at line ends when it can. Pieces after the first
// repeat the block's heading marked "(continued)".
func splitBlock(block string, room int) []string {
	if utf8.RuneCountInString(block)+1 <= room {
		return []string{block}
	}
	heading, _, _ := strings.Cut(block, "\n")
	if i := strings.Index(heading, " ("); i > 0 {
		heading = heading[:i] // drop the time
	}
	cont := heading + " (continued)\n"
	var out []string
	var b strings.Builder
	used := 1
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
			b.WriteString(cont)
			used = 1 + utf8.RuneCountInString(cont)
		}
	}
	for line := range strings.SplitAfterSeq(block, "\n") {
		for line != "" {
			n := utf8.RuneCountInString(line)
			if used+n <= room {
				b.WriteString(line)
				used += n
				break
			}
			if used > 1+utf8.RuneCountInString(cont) || (len(out) == 0 && b.Len() > 0) {
				flush()
				continue
			}
			// One line longer than a whole chunk: cut it.
			fit := max(room-used-1, 1)
			head := line[:runeOffset(line, fit)]
			b.WriteString(head + "\n")
			used += fit + 1
			line = line[len(head):]
			flush()
		}
	}
	if b.Len() > 0 && b.String() != cont {
		out = append(out, b.String())
	}
	return out
}
