package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// serveResponses answers a streaming OpenAI Responses API request (as the
// Codex CLI sends it: POST /v1/responses, "stream": true) with server-sent
// events: the reply as one output item (a message, or a function call
// whose arguments are the reply's ToolInput), then response.completed with
// usage. The request is taken from the same script as the Messages API.
func (f *Model) serveResponses(w http.ResponseWriter, body []byte) {
	var req struct {
		Model string `json:"model"`
	}
	json.Unmarshal(body, &req)
	rep, n := f.next(body, true)
	if rep.Status != 0 && rep.Status != http.StatusOK {
		writeError(w, rep)
		return
	}
	id := fmt.Sprint(n)
	var item map[string]any
	var delta []map[string]any
	switch {
	case rep.ToolName == "tool_search":
		item = map[string]any{"type": "tool_search_call", "id": "ts_" + id, "call_id": "call_" + id,
			"execution": "client", "arguments": json.RawMessage(rep.ToolInput), "status": "completed"}
	case rep.ToolName != "":
		item = map[string]any{"type": "function_call", "id": "fc_" + id, "call_id": "call_" + id,
			"name": rep.ToolName, "arguments": rep.ToolInput, "status": "completed"}
		if rep.Namespace != "" {
			item["namespace"] = rep.Namespace
		}
	default:
		item = map[string]any{"type": "message", "id": "msg_" + id, "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": rep.Text, "annotations": []any{}}}}
		delta = append(delta, map[string]any{"type": "response.output_text.delta", "item_id": "msg_" + id,
			"output_index": 0, "content_index": 0, "delta": rep.Text})
	}
	resp := map[string]any{"id": "resp_" + id, "object": "response", "status": "in_progress", "model": req.Model, "output": []any{}}
	events := []map[string]any{
		{"type": "response.created", "response": resp},
		{"type": "response.output_item.added", "output_index": 0, "item": item},
	}
	events = append(events, delta...)
	done := map[string]any{"id": "resp_" + id, "object": "response", "status": "completed", "model": req.Model,
		"output": []any{item}, "usage": map[string]any{"input_tokens": 10, "input_tokens_details": map[string]int{"cached_tokens": 0},
			"output_tokens": 5, "output_tokens_details": map[string]int{"reasoning_tokens": 0}, "total_tokens": 15}}
	events = append(events,
		map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item},
		map[string]any{"type": "response.completed", "response": done})
	w.Header().Set("content-type", "text/event-stream")
	for _, e := range events {
		data, _ := json.Marshal(e)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e["type"], data)
	}
}
