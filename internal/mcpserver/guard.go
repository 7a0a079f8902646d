package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Bounds of one message read from the client.
const (
	maxFrame = 8 << 20 // bytes: a memory is at most 1 MiB, JSON-escaped well under this
	maxDepth = 64      // nesting of arrays and objects; no tool takes more than a few
)

// JSON-RPC 2.0 error codes.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// lockedWriter serializes whole-line writes: the SDK's answers and the
// guard's own.
type lockedWriter struct {
	mu sync.Mutex // guards w
	w  io.Writer
}

func (lw *lockedWriter) Write(p []byte) (int, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.w.Write(p)
}

// A guard stands between the client and the SDK, whose connection ends at
// the first message it cannot decode: it passes on the lines the SDK can
// read, and answers every other one itself with a JSON-RPC error (a parse
// error, an invalid request, a batch, an object id, nesting past
// maxDepth, a frame past maxFrame), so the server keeps serving and the
// agent keeps its memory tools.
type guard struct {
	out        io.Writer // where the guard's own answers go
	partial    []byte    // the line being read
	discarding bool      // the line being read is past maxFrame: dropped up to its newline
}

// feed takes what was read and returns the lines to pass on, each ending
// in a newline. At the end of input (eof), the unfinished last line counts.
func (g *guard) feed(buf []byte, eof bool) []byte {
	var pass []byte
	for len(buf) > 0 {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			g.take(buf)
			break
		}
		g.take(buf[:i])
		buf = buf[i+1:]
		pass = g.line(pass)
	}
	if eof && (len(g.partial) > 0 || g.discarding) {
		pass = g.line(pass)
	}
	return pass
}

// take adds to the line being read, or drops it once it is past maxFrame.
func (g *guard) take(b []byte) {
	if g.discarding {
		return
	}
	if len(g.partial)+len(b) > maxFrame {
		g.partial, g.discarding = g.partial[:0], true
		return
	}
	g.partial = append(g.partial, b...)
}

// line judges the line read and appends it to pass when the SDK can read it.
func (g *guard) line(pass []byte) []byte {
	line := bytes.TrimSpace(g.partial)
	discarded := g.discarding
	g.partial, g.discarding = g.partial[:0], false
	switch {
	case discarded:
		g.answer(nil, codeInvalidRequest, fmt.Sprintf("message larger than %d MiB: not read", maxFrame>>20))
	case len(line) == 0:
	default:
		if code, msg := judge(line); code != 0 {
			g.answer(idOf(line), code, msg)
			return pass
		}
		pass = append(append(pass, line...), '\n')
	}
	return pass
}

// judge returns the error code and message for a line the SDK must not
// get, or 0 for one it can decode.
func judge(line []byte) (int, string) {
	switch {
	case !utf8.Valid(line):
		return codeParseError, "parse error: the message is not valid UTF-8"
	case depth(line) > maxDepth:
		return codeInvalidRequest, fmt.Sprintf("invalid request: nested deeper than %d", maxDepth)
	case line[0] == '[':
		return codeInvalidRequest, "invalid request: batches are not supported; send one message per line"
	case !json.Valid(line):
		return codeParseError, "parse error: the message is not JSON"
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return codeInvalidRequest, "invalid request: " + err.Error()
	}
	return 0, ""
}

// depth is the deepest nesting of arrays and objects in a JSON text,
// strings skipped, without parsing it.
func depth(b []byte) int {
	d, deepest, inString, escaped := 0, 0, false, false
	for _, c := range b {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			d++
			deepest = max(deepest, d)
		case c == ']' || c == '}':
			d--
		}
	}
	return deepest
}

// idOf returns a message's id when it is one an answer may carry (a
// string or a number), else null.
func idOf(line []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &m) == nil && len(m.ID) > 0 {
		var v any
		if json.Unmarshal(m.ID, &v) == nil {
			switch v.(type) {
			case string, float64:
				return m.ID
			}
		}
	}
	return json.RawMessage("null")
}

// answer writes a JSON-RPC error for a message the SDK never saw.
func (g *guard) answer(id json.RawMessage, code int, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	data, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	g.out.Write(append(data, '\n'))
}
