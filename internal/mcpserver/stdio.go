package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// drainTimeout bounds how long the end of input waits for answers still
// being worked on.
const drainTimeout = 30 * time.Second

// Stdio returns the transport for a server on a process's standard
// streams: newline-delimited JSON-RPC read from in and written to out. It
// differs from the SDK's stdio transport in one way: when in ends, it
// holds the end back until every request read has been answered, so a
// client that writes its requests and closes its end of the pipe (a
// script, `mnemo mcp < requests.jsonl`) still gets every answer. Neither
// stream is closed.
//
// Every message passes a guard first: one the SDK could not decode (which
// would end the connection) is answered with a JSON-RPC error and dropped,
// and the server goes on.
func Stdio(in io.Reader, out io.Writer) mcp.Transport {
	d := &drain{}
	d.cond = sync.NewCond(&d.mu)
	lw := &lockedWriter{w: out}
	return &mcp.IOTransport{
		Reader: &drainReader{r: in, d: d, g: &guard{out: lw}},
		Writer: &countingWriter{w: lw, d: d},
	}
}

// drain counts the requests read and not yet answered.
type drain struct {
	mu      sync.Mutex // guards following
	cond    *sync.Cond
	pending int
}

func (d *drain) add(n int) {
	d.mu.Lock()
	d.pending = max(0, d.pending+n)
	d.mu.Unlock()
	d.cond.Broadcast()
}

// wait blocks until nothing is pending or drainTimeout passed.
func (d *drain) wait() {
	timer := time.AfterFunc(drainTimeout, func() {
		d.mu.Lock()
		d.pending = 0
		d.mu.Unlock()
		d.cond.Broadcast()
	})
	defer timer.Stop()
	d.mu.Lock()
	for d.pending > 0 {
		d.cond.Wait()
	}
	d.mu.Unlock()
}

// A message is what counting needs of a JSON-RPC message.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// lines calls fn for each complete line in buf after what was left over
// from before (*partial), keeping the incomplete rest in *partial.
func lines(partial *[]byte, buf []byte, fn func(line []byte)) {
	*partial = append(*partial, buf...)
	for {
		i := bytes.IndexByte(*partial, '\n')
		if i < 0 {
			return
		}
		fn((*partial)[:i])
		*partial = (*partial)[i+1:]
	}
}

type drainReader struct {
	r     io.Reader
	d     *drain
	g     *guard
	buf   []byte
	ready []byte // lines the guard passed, not yet read by the SDK
	err   error  // what the last read of r returned
}

func (dr *drainReader) Read(p []byte) (int, error) {
	for len(dr.ready) == 0 {
		if dr.err != nil {
			if dr.err == io.EOF {
				dr.d.wait()
			}
			return 0, dr.err
		}
		if dr.buf == nil {
			dr.buf = make([]byte, 64<<10)
		}
		n, err := dr.r.Read(dr.buf)
		pass := dr.g.feed(dr.buf[:n], err == io.EOF)
		for line := range bytes.Lines(pass) {
			var m message
			if json.Unmarshal(line, &m) == nil && m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null" {
				dr.d.add(1) // a request: an answer is owed
			}
		}
		dr.ready, dr.err = append(dr.ready, pass...), err
	}
	n := copy(p, dr.ready)
	dr.ready = dr.ready[n:]
	return n, nil
}

func (dr *drainReader) Close() error { return nil }

type countingWriter struct {
	w       io.Writer
	d       *drain
	partial []byte
}

func (cw *countingWriter) Write(p []byte) (int, error) {
	n, err := cw.w.Write(p)
	lines(&cw.partial, p[:n], func(line []byte) {
		if isResponse(line) {
			cw.d.add(-1)
		}
	})
	return n, err
}

func (cw *countingWriter) Close() error { return nil }

// isResponse reports whether a message is an answer: it has an id and a
// result or an error. It reads the top-level keys only as far as it needs
// to, since an answer may be long and the SDK writes its id first.
func isResponse(line []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	id, answer := false, false
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return false
		}
		switch t {
		case "method":
			return false
		case "result", "error":
			answer = true
		case "id":
			id = true
		}
		if id && answer {
			return true
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return false
		}
	}
	return false
}
