package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/safefile"
)

// DefaultMaxLineBytes is the longest line a [Reader] decodes. Longer lines
// are stepped over without being held in memory and counted in
// [Stats.Oversized]; Claude Code spills outputs that large to files of
// their own, so such a line is noise.
const DefaultMaxLineBytes = 16 << 20

// seenMessages bounds how many assistant messages a Reader remembers for
// de-duplication. The lines of one response are written together, so a small
// window is enough and memory stays flat on files of any size.
const seenMessages = 1024

// Stats counts what a [Reader] saw.
type Stats struct {
	Lines      int   // complete lines read, blank and bad ones included
	Entries    int   // entries returned by Next
	Blank      int   // empty lines
	Bad        int   // lines that are not a JSON object
	Skipped    int   // valid lines of a type that is not an entry (progress, snapshots…)
	Duplicates int   // assistant lines whose every block an earlier line already gave
	Repaired   int   // lines with invalid UTF-8, repaired with U+FFFD
	Oversized  int   // lines longer than MaxLineBytes, stepped over
	Pending    int64 // bytes of an unfinished last line left for the next read
}

// A Reader reads the entries of a Claude Code transcript (JSONL), or of a
// Codex CLI rollout file (see codex.go), one at a time, from a byte offset, and reports the offset it reached so the next
// job can resume there. It never fails on a bad line: lines that are not
// JSON, lines of unknown types and lines too long are counted in [Stats] and
// skipped. A last line without its newline is a line still being written:
// Next stops before it (unless it is already a whole JSON object) and
// [Reader.Offset] stays at the end of the last complete line.
//
// The lines of one assistant response share message.id and requestId;
// blocks that an earlier line of the same response already returned are
// dropped, and a line left with no new block is not returned.
//
// A Reader is not safe for concurrent use.
type Reader struct {
	// MaxLineBytes is the longest line decoded; set it before the first
	// call to Next. Zero means [DefaultMaxLineBytes].
	MaxLineBytes int

	// Oversized, when set, hears of each line stepped over as longer than
	// MaxLineBytes: its number among the lines read (from 1 at the
	// starting offset), the offset of its first byte and its length.
	Oversized func(line int, offset int64, size int)

	br     *bufio.Reader
	closer io.Closer
	off    int64 // offset past the last complete line consumed
	buf    []byte
	stats  Stats
	meta   metaTracker
	seen   map[string]map[uint64]bool
	order  []string // keys of seen, oldest first

	codexMulti map[string][]string // Codex calls made of several blocks, by call id

	// A Gemini CLI session (gemini.go) is read whole: its entries wait
	// here, and offsets count messages.
	gemini    bool
	queued    []Entry
	geminiEnd int64 // messages in the session
	err       error // sticky: io.EOF or a read error
}

// ErrOffset reports a starting offset beyond the end of the transcript: the
// file was replaced or truncated since the offset was recorded.
var ErrOffset = errors.New("offset beyond the end of the transcript")

// lookback is how much of the transcript before the starting offset
// [Open] reads to remember which assistant blocks were already returned, so
// a response whose lines straddle two jobs is not repeated.
const lookback = 256 << 10

// Open opens the transcript at path for reading from offset, which should
// be 0 or an offset returned by [Reader.Offset] for the same file; an
// offset past the end of the file is [ErrOffset]. It
// first reads up to 256 KiB before offset, returning none of it, to
// de-duplicate a response split across the two reads. Close the Reader
// when done.
func Open(path string, offset int64) (*Reader, error) {
	f, _, err := safefile.Open(path, MaxFileSize) // a FIFO or a device is refused, never waited on
	if err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	// At offset 0 NewReader finds a Gemini session itself; past it, the
	// offset counts messages, which must be known before the size check.
	if offset > 0 && geminiFile(f) {
		r := &Reader{off: offset, seen: make(map[string]map[uint64]bool)}
		err := r.openGemini(f, offset)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("transcript: open %s at message %d: %w", path, offset, err)
		}
		return r, nil
	}
	if info, err := f.Stat(); err == nil && offset > info.Size() {
		f.Close()
		return nil, fmt.Errorf("transcript: open %s at %d: %w (%d bytes)", path, offset, ErrOffset, info.Size())
	}
	r := NewReader(f, offset)
	r.closer = f
	if offset > 0 {
		start := max(0, offset-lookback)
		r.prime(io.NewSectionReader(f, start, offset-start), start > 0)
		if _, err := f.Seek(offset, io.SeekStart); err != nil {
			f.Close()
			return nil, fmt.Errorf("transcript: seek %s to %d: %w", path, offset, err)
		}
	}
	return r, nil
}

// geminiFile reports whether f holds a Gemini CLI session document.
func geminiFile(f *os.File) bool {
	head := make([]byte, 4096)
	n, _ := f.ReadAt(head, 0)
	return looksGemini(head[:n])
}

// prime reads src, the lines just before where r starts, only to remember
// their assistant blocks. partial says src starts mid-line.
func (r *Reader) prime(src io.Reader, partial bool) {
	p := NewReader(src, 0)
	p.seen = r.seen
	if partial {
		for {
			_, err := p.br.ReadSlice('\n')
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
		}
	}
	for {
		if _, err := p.Next(); err != nil {
			break
		}
	}
	r.order = p.order
}

// NewReader returns a Reader of r, whose next byte is at offset in the
// transcript; offset only labels what the Reader reports.
func NewReader(r io.Reader, offset int64) *Reader {
	rd := &Reader{
		br:   bufio.NewReaderSize(r, 64<<10),
		off:  offset,
		seen: make(map[string]map[uint64]bool),
	}
	if offset > 0 {
		return rd // Open found a Gemini session at any offset
	}
	if head, _ := rd.br.Peek(4096); looksGemini(head) {
		if err := rd.openGemini(rd.br, 0); err != nil {
			rd.err = fmt.Errorf("transcript: %w", err)
		}
	}
	return rd
}

// Close closes the file opened by [Open]; it does nothing for a Reader made
// by [NewReader].
func (r *Reader) Close() error {
	if r.closer == nil {
		return nil
	}
	err := r.closer.Close()
	r.closer = nil
	return err
}

// Offset returns the byte offset just past the last complete line read: the
// offset to resume from. It never moves backwards and never passes the end of
// the data read.
func (r *Reader) Offset() int64 { return r.off }

// Stats returns what the Reader has seen so far.
func (r *Reader) Stats() Stats { return r.stats }

// Meta returns the session's metadata gathered from the lines read so far.
func (r *Reader) Meta() Meta { return r.meta.meta() }

// Next returns the next entry. At the end of the data it returns io.EOF;
// any other error is a read error, after which the Reader stays failed.
func (r *Reader) Next() (Entry, error) {
	if r.gemini && r.err == nil {
		if len(r.queued) == 0 {
			r.off = max(r.off, r.geminiEnd)
			return Entry{}, io.EOF
		}
		e := r.queued[0]
		r.queued = r.queued[1:]
		r.off = e.End
		r.stats.Entries++
		return e, nil
	}
	for r.err == nil {
		start := r.off
		line, complete, err := r.readLine()
		if err != nil {
			r.err = err
			break
		}
		if !complete {
			continue // oversized, already counted
		}
		e, ok := r.decode(line)
		if !ok {
			continue
		}
		e.Offset, e.End = start, r.off
		r.stats.Entries++
		return e, nil
	}
	if r.err == io.EOF {
		return Entry{}, io.EOF
	}
	return Entry{}, r.err
}

// readLine returns the next line without its newline and advances the
// offset past it. complete is false for a line too long to decode, which is
// stepped over. At the end of the data it returns io.EOF, after deciding
// whether an unterminated last line is whole.
func (r *Reader) readLine() (line []byte, complete bool, err error) {
	max := r.MaxLineBytes
	if max <= 0 {
		max = DefaultMaxLineBytes
	}
	r.buf = r.buf[:0]
	n := 0 // length of the line so far, kept or not
	for {
		chunk, err := r.br.ReadSlice('\n')
		if err == nil && n == 0 && len(chunk) <= max+1 {
			// The whole line is in the buffer: decode it from there, as it
			// stays valid until the next read.
			r.off += int64(len(chunk))
			r.stats.Lines++
			return chunk[:len(chunk)-1], true, nil
		}
		n += len(chunk)
		if n <= max+1 {
			r.buf = append(r.buf, chunk...)
		}
		switch {
		case err == nil:
			r.off += int64(n)
			r.stats.Lines++
			if n > max+1 {
				r.stats.Oversized++
				r.takeBuf(nil) // what was read of it is not kept for the lines after
				if r.Oversized != nil {
					r.Oversized(r.stats.Lines, r.off-int64(n), n-1) // without its newline
				}
				return nil, false, nil
			}
			return r.takeBuf(r.buf[:len(r.buf)-1]), true, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return r.lastLine(n, max)
		default:
			return nil, false, fmt.Errorf("transcript: read at offset %d: %w", r.off+int64(n), err)
		}
	}
}

// lastLine handles n bytes found after the last newline at the end of the
// data. A whole JSON object is a complete line whose newline is not written
// yet (or never will be); anything else is left for the next read.
func (r *Reader) lastLine(n, max int) ([]byte, bool, error) {
	if n == 0 {
		return nil, false, io.EOF
	}
	trimmed := bytes.TrimSpace(r.buf)
	if n <= max && len(trimmed) > 0 && trimmed[0] == '{' && json.Valid(trimmed) {
		r.off += int64(n)
		r.stats.Lines++
		r.err = io.EOF // the data ends here; report the line first
		return r.takeBuf(r.buf), true, nil
	}
	r.stats.Pending = int64(n)
	return nil, false, io.EOF
}

// takeBuf returns line, releasing an outsized buffer afterwards so one huge
// line does not pin its memory for the rest of the file.
func (r *Reader) takeBuf(line []byte) []byte {
	if cap(r.buf) > 4<<20 {
		r.buf = nil
	}
	return line
}

// decode turns one line into an entry. It reports false for lines that are
// not returned: blank, bad, of another type, or fully duplicated.
func (r *Reader) decode(line []byte) (Entry, bool) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		r.stats.Blank++
		return Entry{}, false
	}
	if !utf8.Valid(line) {
		line = bytes.ToValidUTF8(line, []byte("\uFFFD"))
		r.stats.Repaired++
	}
	if line[0] != '{' {
		r.stats.Bad++
		return Entry{}, false
	}
	var w wireLine
	if err := json.Unmarshal(line, &w); err != nil {
		var typeErr *json.UnmarshalTypeError
		if !errors.As(err, &typeErr) {
			r.stats.Bad++
			return Entry{}, false
		}
		// A field of an unexpected type: the rest of the line is decoded.
	}
	ts := parseTime(w.Timestamp)
	r.meta.observeTime(ts)
	if w.Payload != nil && isCodexLine(w.Type) {
		e, ok := r.codexEntry(w.Type, w.Payload, ts)
		if !ok {
			r.stats.Skipped++
			return Entry{}, false
		}
		m := r.meta.meta()
		e.SessionID, e.CWD, e.GitBranch, e.Version = m.SessionID, m.CWD, m.GitBranch, m.Version
		return e, true
	}
	r.meta.observe(w.SessionID, w.CWD, w.GitBranch, w.Version, w.IsSidechain)
	if !conversational(w.Type) {
		r.stats.Skipped++
		return Entry{}, false
	}
	e, ok := w.toEntry(ts)
	if !ok {
		r.stats.Skipped++
		return Entry{}, false
	}
	if e.Type == "assistant" && e.MessageID != "" && !r.dedupe(&e) {
		r.stats.Duplicates++
		return Entry{}, false
	}
	return e, true
}

// dedupe drops the blocks of e that an earlier line of the same response
// returned. It reports whether any block is left.
func (r *Reader) dedupe(e *Entry) bool {
	key := e.MessageID + ":" + e.RequestID
	seen := r.seen[key]
	if seen == nil {
		if len(r.order) >= seenMessages {
			delete(r.seen, r.order[0])
			r.order = r.order[1:]
		}
		seen = make(map[uint64]bool, 4)
		r.seen[key] = seen
		r.order = append(r.order, key)
	}
	kept := e.Content[:0]
	for _, b := range e.Content {
		fp := fingerprint(b)
		if seen[fp] {
			continue
		}
		seen[fp] = true
		kept = append(kept, b)
	}
	had := len(e.Content) > 0
	e.Content = kept
	return len(kept) > 0 || !had
}

// fingerprint is the FNV-1a hash of what identifies a block.
func fingerprint(b Block) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	for _, s := range [...]string{b.Type, b.ID, b.Text, b.ToolUseID} {
		for i := 0; i < len(s); i++ {
			h = (h ^ uint64(s[i])) * prime
		}
		h = (h ^ 0xff) * prime
	}
	for _, raw := range [...][]byte{b.Input, b.Content} {
		for _, c := range raw {
			h = (h ^ uint64(c)) * prime
		}
		h = (h ^ 0xff) * prime
	}
	return h
}

// MaxFileSize bounds the transcripts read: far past any real session (a
// long Claude Code session is tens of MB), a bound against a sparse or
// endless file named as one. Only regular files are read at all: a FIFO,
// /dev/zero or /dev/urandom named as a transcript is refused, never
// waited on.
const MaxFileSize = 4 << 30
