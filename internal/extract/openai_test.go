package extract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// openaiServer is an OpenAI-compatible chat completions endpoint that
// answers from a script and keeps each request.
type openaiServer struct {
	srv *httptest.Server

	mu      sync.Mutex // guards following
	script  []openaiReply
	bodies  []string
	headers []http.Header
}

type openaiReply struct {
	status  int // 0: 200
	header  map[string]string
	content string
	refusal string
	finish  string // default "stop"
}

func newOpenAIServer(t *testing.T, script ...openaiReply) *openaiServer {
	s := &openaiServer{script: script}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *openaiServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" {
		http.NotFound(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.bodies = append(s.bodies, string(body))
	s.headers = append(s.headers, r.Header.Clone())
	rep := openaiReply{content: "[]"}
	if len(s.script) > 0 {
		rep, s.script = s.script[0], s.script[1:]
	}
	s.mu.Unlock()
	for k, v := range rep.header {
		w.Header().Set(k, v)
	}
	w.Header().Set("content-type", "application/json")
	if rep.status != 0 {
		w.WriteHeader(rep.status)
		fmt.Fprint(w, `{"error":{"message":"test","type":"rate_limit_exceeded","code":null,"param":null}}`)
		return
	}
	if rep.finish == "" {
		rep.finish = "stop"
	}
	msg := map[string]any{"role": "assistant", "content": rep.content}
	if rep.refusal != "" {
		msg["content"], msg["refusal"] = nil, rep.refusal
	}
	json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "qwen2.5:7b",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": rep.finish}},
		"usage":   map[string]int{"prompt_tokens": 12, "completion_tokens": 6, "total_tokens": 18},
	})
}

func (s *openaiServer) requests() ([]string, []http.Header) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.bodies...), append([]http.Header(nil), s.headers...)
}

func openaiConfig(url string) Config {
	cfg := testConfig(ProviderOpenAI, url+"/v1")
	cfg.APIKey = "sk-local"
	cfg.Model = "qwen2.5:7b"
	return cfg
}

func TestOpenAISuccess(t *testing.T) {
	srv := newOpenAIServer(t, openaiReply{content: goodReply})
	x := newExtractor(t, openaiConfig(srv.srv.URL))
	got, u, err := x.Extract(context.Background(), testProject(t))
	if err != nil || len(got) != 1 || got[0].Name != "web-uses-pnpm" {
		t.Fatalf("Extract = %+v, %v; want the reply's candidate", got, err)
	}
	if want := (Usage{InputTokens: 12, OutputTokens: 6, Calls: 1}); u != want {
		t.Errorf("Usage = %+v, want %+v", u, want)
	}
	bodies, headers := srv.requests()
	var body struct {
		Model       string   `json:"model"`
		Temperature *float64 `json:"temperature"`
		Messages    []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(bodies[0]), &body); err != nil {
		t.Fatal(err)
	}
	if body.Model != "qwen2.5:7b" || body.Temperature == nil || *body.Temperature != 0 {
		t.Errorf("model %q, temperature %v; want qwen2.5:7b at 0", body.Model, body.Temperature)
	}
	if len(body.Messages) != 2 || body.Messages[0].Role != "system" || body.Messages[0].Content != systemPrompt ||
		body.Messages[1].Role != "user" || !strings.Contains(body.Messages[1].Content, "We use pnpm in web/") {
		t.Errorf("messages are not the prompt and the digest: %.500s", bodies[0])
	}
	if strings.Contains(bodies[0], "sk-ant-api03-AbCd") {
		t.Errorf("the API key in the prompt reached the request")
	}
	if got := headers[0].Get("Authorization"); got != "Bearer sk-local" {
		t.Errorf("Authorization = %q, want the configured key", got)
	}
}

func TestOpenAIErrors(t *testing.T) {
	tests := []struct {
		name     string
		script   []openaiReply
		requests int
		check    func(t *testing.T, got []Candidate, err error)
	}{
		{"429 without retry-after", []openaiReply{{status: 429}}, 1, func(t *testing.T, _ []Candidate, err error) {
			if !errors.Is(err, ErrRateLimited) {
				t.Errorf("Extract error = %v, want ErrRateLimited", err)
			}
		}},
		{"429 with retry-after", []openaiReply{{status: 429, header: map[string]string{"retry-after-ms": "5"}}, {content: goodReply}}, 2, wantOne},
		{"503 then success", []openaiReply{{status: 503}, {content: goodReply}}, 2, wantOne},
		{"refusal", []openaiReply{{refusal: "I can't help with that."}}, 1, func(t *testing.T, _ []Candidate, err error) {
			if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "I can't help") {
				t.Errorf("Extract error = %v, want ErrRefused with the refusal", err)
			}
		}},
		{"content filter", []openaiReply{{content: "", finish: "content_filter"}}, 1, func(t *testing.T, _ []Candidate, err error) {
			if !errors.Is(err, ErrRefused) {
				t.Errorf("Extract error = %v, want ErrRefused", err)
			}
		}},
		{"cut off, then repaired", []openaiReply{{content: goodReply[:50], finish: "length"}, {content: goodReply}}, 2, wantOne},
		{"malformed twice", []openaiReply{{content: "[{"}, {content: "[{]"}}, 2, func(t *testing.T, _ []Candidate, err error) {
			var oe *OutputError
			if !errors.As(err, &oe) || oe.Raw != "[{]" || oe.Provider != ProviderOpenAI {
				t.Errorf("Extract error = %v, want an *OutputError with the last reply", err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newOpenAIServer(t, tt.script...)
			x := newExtractor(t, openaiConfig(srv.srv.URL))
			got, u, err := x.Extract(context.Background(), testProject(t))
			if bodies, _ := srv.requests(); len(bodies) != tt.requests || u.Calls != tt.requests {
				t.Errorf("%d requests, %d calls; want %d", len(bodies), u.Calls, tt.requests)
			}
			tt.check(t, got, err)
		})
	}
}

func wantOne(t *testing.T, got []Candidate, err error) {
	t.Helper()
	if err != nil || len(got) != 1 {
		t.Errorf("Extract = %+v, %v; want one candidate", got, err)
	}
}
