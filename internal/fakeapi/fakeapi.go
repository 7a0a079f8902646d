package fakeapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// A Reply is one scripted answer of the fake model: text, or a tool call.
type Reply struct {
	Text      string
	ToolName  string
	ToolInput string // JSON
	// Namespace is the namespace of a Responses API function call: Codex
	// names the tools of an MCP server mcp__<server> (ToolName is then the
	// server's own name of the tool). A ToolName "tool_search" is Codex's
	// client-side tool search, answered as a tool_search_call item.
	Namespace string
	// Status, when not 0 or 200, is an HTTP error status to answer with,
	// and Header its headers (retry-after…); Text is then the error body.
	Status int
	Header map[string]string
	// InputTokens, when not 0, is the input a plain reply says it used
	// (10 otherwise), so a test can spend a token budget.
	InputTokens int
}

// A Model serves the Messages API from a script and keeps every request
// body. When the script runs out it answers "OK.".
type Model struct {
	srv *httptest.Server

	mu       sync.Mutex // guards following
	script   []Reply
	plain    []Reply  // replies for non-streaming requests, before script
	requests []string // bodies of /v1/messages requests, in order
	plainReq []string // the non-streaming ones
}

// TB is the part of testing.TB a Model needs.
type TB interface {
	Helper()
	Cleanup(func())
}

// New starts a fake model on loopback, stopped when the test ends.
func New(t TB, script ...Reply) *Model {
	t.Helper()
	f := &Model{script: script}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// URL is the base URL to give as ANTHROPIC_BASE_URL.
func (f *Model) URL() string { return f.srv.URL }

// Requests returns the request bodies so far (messages and responses).
func (f *Model) Requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.requests...)
}

// PushPlain adds replies for non-streaming requests only (as mnemo's own
// Anthropic provider sends, and Claude Code never does), so a test can
// script the extractor apart from a Claude Code session sharing the fake.
func (f *Model) PushPlain(rs ...Reply) {
	f.mu.Lock()
	f.plain = append(f.plain, rs...)
	f.mu.Unlock()
}

// PlainRequests returns the bodies of the non-streaming requests so far.
func (f *Model) PlainRequests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.plainReq...)
}

// Push adds replies to the script.
func (f *Model) Push(rs ...Reply) {
	f.mu.Lock()
	f.script = append(f.script, rs...)
	f.mu.Unlock()
}

func (f *Model) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	switch {
	case strings.HasPrefix(r.URL.Path, "/v1/messages/count_tokens"):
		fmt.Fprint(w, `{"input_tokens": 10}`)
		return
	case r.URL.Path == "/v1/responses":
		f.serveResponses(w, body)
		return
	case strings.HasPrefix(r.URL.Path, "/v1beta/models/"):
		f.serveGemini(w, r, body)
		return
	case r.URL.Path != "/v1/messages":
		http.NotFound(w, r)
		return
	}
	var req struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
	}
	json.Unmarshal(body, &req)
	rep, n := f.next(body, req.Stream)
	if rep.Status != 0 && rep.Status != http.StatusOK {
		writeError(w, rep)
		return
	}
	if !req.Stream {
		in := 10
		if rep.InputTokens != 0 {
			in = rep.InputTokens
		}
		w.Header().Set("content-type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "msg_1", "type": "message", "role": "assistant", "model": req.Model,
			"content":     []any{map[string]string{"type": "text", "text": rep.Text}},
			"stop_reason": "end_turn", "usage": map[string]int{"input_tokens": in, "output_tokens": 5},
		})
		return
	}
	w.Header().Set("content-type", "text/event-stream")
	events := []string{
		`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":` + quote(req.Model) +
			`,"content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}}`,
	}
	stop := "end_turn"
	if rep.ToolName != "" {
		stop = "tool_use"
		events = append(events,
			`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_`+fmt.Sprint(n)+`","name":`+quote(rep.ToolName)+`,"input":{}}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":`+quote(rep.ToolInput)+`}}`,
			`{"type":"content_block_stop","index":0}`)
	} else {
		events = append(events,
			`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":`+quote(rep.Text)+`}}`,
			`{"type":"content_block_stop","index":0}`)
	}
	events = append(events,
		`{"type":"message_delta","delta":{"stop_reason":"`+stop+`","stop_sequence":null},"usage":{"output_tokens":5}}`,
		`{"type":"message_stop"}`)
	for _, e := range events {
		var typ struct{ Type string }
		json.Unmarshal([]byte(e), &typ)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ.Type, e)
	}
}

// next records a request body and takes the reply for it: a plain request
// takes a plain reply first. It returns the reply and the request's number.
func (f *Model) next(body []byte, stream bool) (Reply, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, string(body))
	rep := Reply{Text: "OK."}
	switch {
	case !stream && len(f.plain) > 0:
		rep, f.plain = f.plain[0], f.plain[1:]
	case len(f.script) > 0:
		rep, f.script = f.script[0], f.script[1:]
	}
	if !stream {
		f.plainReq = append(f.plainReq, string(body))
	}
	return rep, len(f.requests)
}

// writeError answers with a scripted HTTP error.
func writeError(w http.ResponseWriter, rep Reply) {
	for k, v := range rep.Header {
		w.Header().Set(k, v)
	}
	w.Header().Set("content-type", "application/json")
	w.WriteHeader(rep.Status)
	fmt.Fprint(w, rep.Text)
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
