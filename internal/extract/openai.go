package extract

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// DefaultOpenAIModel is the model of the openai provider when neither
// [Config.Model] nor $OPENAI_MODEL names one.
const DefaultOpenAIModel = "gpt-4o-mini"

// openaiBaseURL is the OpenAI API when neither [Config.BaseURL] nor
// $OPENAI_BASE_URL names another. A base URL includes the version, as
// with OpenAI's own clients: http://localhost:11434/v1 for Ollama.
const openaiBaseURL = "https://api.openai.com/v1"

// openaiBackend calls a chat completions endpoint at temperature 0.
// [retrying] decides the retries, as for [anthropicBackend].
type openaiBackend struct {
	client   *http.Client
	endpoint string      // {base}/chat/completions
	header   http.Header // the key, and the organization and project when set
	model    string
	cfg      Config
}

func newOpenAI(cfg Config) (Extractor, error) {
	base := cfg.BaseURL
	if base == "" {
		base = cfg.Getenv("OPENAI_BASE_URL")
	}
	key := cfg.APIKey
	if key == "" {
		key = cfg.Getenv("OPENAI_API_KEY")
	}
	if base == "" && key == "" {
		return nil, fmt.Errorf("extract: openai: no endpoint: set OPENAI_BASE_URL (and OPENAI_API_KEY if it needs one): %w", ErrUnavailable)
	}
	if base == "" {
		base = openaiBaseURL
	}
	if key == "" {
		key = "none" // local servers (Ollama, vLLM, LM Studio) ignore it; some proxies want one
	}
	header := http.Header{}
	header.Set("Authorization", "Bearer "+key)
	// As OpenAI's own clients read them.
	if v := cfg.Getenv("OPENAI_ORG_ID"); v != "" {
		header.Set("OpenAI-Organization", v)
	}
	if v := cfg.Getenv("OPENAI_PROJECT_ID"); v != "" {
		header.Set("OpenAI-Project", v)
	}
	model := cfg.Model
	if model == "" {
		model = cfg.Getenv("OPENAI_MODEL")
	}
	if model == "" {
		model = DefaultOpenAIModel
	}
	be := &openaiBackend{
		client:   httpClient(cfg.HTTPClient),
		endpoint: strings.TrimRight(base, "/") + "/chat/completions",
		header:   header,
		model:    model,
		cfg:      cfg,
	}
	return &llm{name: ProviderOpenAI, be: be, cfg: cfg}, nil
}

// openaiRequest is the body of a chat completions request.
type openaiRequest struct {
	Model       string          `json:"model"`
	Messages    []openaiMessage `json:"messages"`
	MaxTokens   int             `json:"max_tokens"`
	Temperature float64         `json:"temperature"`
}

type openaiMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// openaiResponse is what mnemo reads of a chat completion. Content and
// refusal are null when absent, read as "".
type openaiResponse struct {
	Choices []struct {
		Message struct {
			Content string `json:"content"`
			Refusal string `json:"refusal"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

func (b *openaiBackend) complete(ctx context.Context, req request) (reply, error) {
	body := openaiRequest{
		Model:     b.model,
		Messages:  []openaiMessage{{Role: "system", Content: req.System}},
		MaxTokens: req.MaxTokens,
	}
	for _, m := range req.Messages {
		role := "user"
		if m.Role == "assistant" {
			role = "assistant"
		}
		body.Messages = append(body.Messages, openaiMessage{Role: role, Content: m.Text})
	}
	call := func(ctx context.Context) (reply, error) {
		var res openaiResponse
		if err := postJSON(ctx, b.client, b.endpoint, b.header, body, &res); err != nil {
			return reply{}, err
		}
		rep := reply{Usage: Usage{InputTokens: res.Usage.PromptTokens, OutputTokens: res.Usage.CompletionTokens}}
		if len(res.Choices) == 0 {
			return rep, errors.New("the response has no choices")
		}
		ch := res.Choices[0]
		rep.Text = ch.Message.Content
		switch {
		case ch.Message.Refusal != "" || ch.FinishReason == "content_filter":
			rep.Stop = stopRefusal
			if ch.Message.Refusal != "" {
				rep.Text = ch.Message.Refusal
			}
		case ch.FinishReason == "length":
			rep.Stop = stopMaxTokens
		}
		return rep, nil
	}
	return retrying(ctx, b.cfg, ProviderOpenAI, call)
}
