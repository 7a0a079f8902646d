package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// A reply is one scripted answer of the fake model: text, or a tool call.
type reply struct {
	text      string
	toolName  string
	toolInput string // JSON
}

// fakeModel serves the Messages API from a script and keeps every request
// body. When the script runs out it answers "OK.".
type fakeModel struct {
	srv *httptest.Server

	mu       sync.Mutex // guards following
	script   []reply
	requests []string // bodies of /v1/messages requests, in order
}

func newFakeModel(t *testing.T, script ...reply) *fakeModel {
	t.Helper()
	f := &fakeModel{script: script}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeModel) URL() string { return f.srv.URL }

// Requests returns the message request bodies so far.
func (f *fakeModel) Requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.requests...)
}

// push adds replies to the script.
func (f *fakeModel) push(rs ...reply) {
	f.mu.Lock()
	f.script = append(f.script, rs...)
	f.mu.Unlock()
}

func (f *fakeModel) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	switch {
	case strings.HasPrefix(r.URL.Path, "/v1/messages/count_tokens"):
		fmt.Fprint(w, `{"input_tokens": 10}`)
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
	f.mu.Lock()
	f.requests = append(f.requests, string(body))
	rep := reply{text: "OK."}
	if len(f.script) > 0 {
		rep, f.script = f.script[0], f.script[1:]
	}
	f.mu.Unlock()
	if !req.Stream {
		w.Header().Set("content-type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "msg_1", "type": "message", "role": "assistant", "model": req.Model,
			"content":     []any{map[string]string{"type": "text", "text": rep.text}},
			"stop_reason": "end_turn", "usage": map[string]int{"input_tokens": 10, "output_tokens": 5},
		})
		return
	}
	w.Header().Set("content-type", "text/event-stream")
	events := []string{
		`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":` + quote(req.Model) +
			`,"content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}}`,
	}
	stop := "end_turn"
	if rep.toolName != "" {
		stop = "tool_use"
		events = append(events,
			`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_`+fmt.Sprint(len(f.Requests()))+`","name":`+quote(rep.toolName)+`,"input":{}}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":`+quote(rep.toolInput)+`}}`,
			`{"type":"content_block_stop","index":0}`)
	} else {
		events = append(events,
			`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":`+quote(rep.text)+`}}`,
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

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
