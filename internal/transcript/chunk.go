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
//
// The digest is rendered twice, a turn at a time: once to measure the
// pieces and group them, once to write each chunk, so that only the chunks
// are held, not the pieces as well.
func (d *Digest) Chunks(budget int) []Chunk {
	room := budget*4 - utf8.RuneCountInString(d.header("9999/9999")) - 1
	room = max(room, minChunkRunes)
	groups := d.chunkGroups(room)

	chunks := make([]Chunk, len(groups))
	var b strings.Builder
	g, left := -1, 0 // the chunk being written, and the pieces it still takes
	finish := func() {
		if g >= 0 {
			text := b.String()
			chunks[g] = Chunk{Text: text, Tokens: memory.EstimateTokens(text), First: groups[g].first, Last: groups[g].last}
		}
	}
	next := func() {
		finish()
		g++
		head := d.header(strconv.Itoa(g+1) + "/" + strconv.Itoa(len(groups)))
		b = strings.Builder{}
		b.Grow(len(head) + groups[g].bytes)
		b.WriteString(head)
		left = groups[g].pieces
	}
	next()
	for _, block := range d.blocks() {
		for _, p := range splitBlock(block, room) {
			if left == 0 {
				next()
			}
			b.WriteByte('\n')
			b.WriteString(p)
			left--
		}
	}
	finish()
	return chunks
}

// A chunkGroup is what one chunk holds: how many pieces, their bytes with
// the newline before each, and the first and last turn among them.
type chunkGroup struct {
	pieces, bytes int
	first, last   int
}

// chunkGroups measures the pieces of the digest's blocks, cut to room, and
// groups them in order into chunks of at most room characters each. There
// is always at least one group.
func (d *Digest) chunkGroups(room int) []chunkGroup {
	var groups []chunkGroup
	used := room + 1 // forces a new group for the first piece
	for turn, block := range d.blocks() {
		for _, p := range splitBlock(block, room) {
			n := utf8.RuneCountInString(p) + 1 // and the blank line before it
			if used+n > room || len(groups) == 0 {
				groups = append(groups, chunkGroup{})
				used = 0
			}
			g := &groups[len(groups)-1]
			g.pieces++
			g.bytes += len(p) + 1
			if turn > 0 {
				if g.first == 0 {
					g.first = turn
				}
				g.last = turn
			}
			used += n
		}
	}
	if len(groups) == 0 {
		groups = append(groups, chunkGroup{})
	}
	return groups
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
