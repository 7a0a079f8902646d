package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// routerReply is the answer to the Gemini CLI's router request (a JSON
// mode generateContent asking how complex the prompt is), valid for its
// schema {complexity_reasoning: string, complexity_score: 1..100}.
const routerReply = `{"complexity_reasoning":"a simple request","complexity_score":10}`

// serveGemini answers the Gemini API as the Gemini CLI calls it
// (GOOGLE_GEMINI_BASE_URL): POST /v1beta/models/<model>:generateContent is
// its router request, answered with routerReply and not kept;
// :streamGenerateContent?alt=sse is the session's, answered from the
// script with server-sent events, a tool reply as a functionCall part
// whose args are the reply's ToolInput.
func (f *Model) serveGemini(w http.ResponseWriter, r *http.Request, body []byte) {
	_, method, _ := strings.Cut(r.URL.Path, ":")
	usage := map[string]int{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}
	answer := func(parts ...any) map[string]any {
		return map[string]any{
			"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}},
			"usageMetadata": usage,
		}
	}
	switch method {
	case "generateContent":
		w.Header().Set("content-type", "application/json")
		json.NewEncoder(w).Encode(answer(map[string]string{"text": routerReply}))
		return
	case "streamGenerateContent":
	default:
		http.NotFound(w, r)
		return
	}
	rep, _ := f.next(body, true)
	if rep.Status != 0 && rep.Status != http.StatusOK {
		writeError(w, rep)
		return
	}
	part := any(map[string]string{"text": rep.Text})
	if rep.ToolName != "" {
		var args map[string]any
		json.Unmarshal([]byte(rep.ToolInput), &args)
		part = map[string]any{"functionCall": map[string]any{"name": rep.ToolName, "args": args}}
	}
	data, _ := json.Marshal(answer(part))
	w.Header().Set("content-type", "text/event-stream")
	fmt.Fprintf(w, "data: %s\n\n", data)
}
