package extract

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// DefaultAnthropicModel is the model of the anthropic provider.
const DefaultAnthropicModel = "claude-haiku-4-5"

// anthropicBaseURL is the Anthropic API when neither [Config.BaseURL]
// nor $ANTHROPIC_BASE_URL names another.
const anthropicBaseURL = "https://api.anthropic.com"

// anthropicKey returns the configured key or token, "" when none.
func anthropicKey(cfg Config) string {
	if cfg.APIKey != "" {
		return cfg.APIKey
	}
	if k := cfg.Getenv("ANTHROPIC_API_KEY"); k != "" {
		return k
	}
	return cfg.Getenv("ANTHROPIC_AUTH_TOKEN")
}

// anthropicBackend calls the Messages API, not streamed, at temperature 0.
// [retrying] decides the retries, so that a 429 without retry-after is
// not retried and the delays follow [Config].
type anthropicBackend struct {
	client   *http.Client
	endpoint string      // {base}/v1/messages
	header   http.Header // the key and the API version
	model    string
	cfg      Config
}

func newAnthropic(cfg Config) (Extractor, error) {
	header := http.Header{}
	switch {
	case cfg.APIKey != "":
		header.Set("X-Api-Key", cfg.APIKey)
	case cfg.Getenv("ANTHROPIC_API_KEY") != "":
		header.Set("X-Api-Key", cfg.Getenv("ANTHROPIC_API_KEY"))
	case cfg.Getenv("ANTHROPIC_AUTH_TOKEN") != "":
		header.Set("Authorization", "Bearer "+cfg.Getenv("ANTHROPIC_AUTH_TOKEN"))
	default:
		return nil, fmt.Errorf("extract: anthropic: no API key: set ANTHROPIC_API_KEY: %w", ErrUnavailable)
	}
	header.Set("Anthropic-Version", "2023-06-01")
	base := cfg.BaseURL
	if base == "" {
		base = cfg.Getenv("ANTHROPIC_BASE_URL")
	}
	if base == "" {
		base = anthropicBaseURL
	}
	model := cfg.Model
	if model == "" {
		model = DefaultAnthropicModel
	}
	be := &anthropicBackend{
		client:   httpClient(cfg.HTTPClient),
		endpoint: strings.TrimRight(base, "/") + "/v1/messages",
		header:   header,
		model:    model,
		cfg:      cfg,
	}
	return &llm{name: ProviderAnthropic, be: be, cfg: cfg}, nil
}

// anthropicRequest is the body of a Messages request.
type anthropicRequest struct {
	Model       string             `json:"model"`
	MaxTokens   int                `json:"max_tokens"`
	System      []anthropicBlock   `json:"system"`
	Messages    []anthropicMessage `json:"messages"`
	Temperature float64            `json:"temperature"`
}

type anthropicMessage struct {
	Role    string           `json:"role"`
	Content []anthropicBlock `json:"content"`
}

// anthropicBlock is a content block; only text ones are read.
type anthropicBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// anthropicResponse is what mnemo reads of a Messages reply.
type anthropicResponse struct {
	Content    []anthropicBlock `json:"content"`
	StopReason string           `json:"stop_reason"`
	Usage      struct {
		InputTokens              int `json:"input_tokens"`
		CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int `json:"cache_read_input_tokens"`
		OutputTokens             int `json:"output_tokens"`
	} `json:"usage"`
}

func (b *anthropicBackend) complete(ctx context.Context, req request) (reply, error) {
	body := anthropicRequest{
		Model:     b.model,
		MaxTokens: req.MaxTokens,
		System:    []anthropicBlock{{Type: "text", Text: req.System}},
	}
	for _, m := range req.Messages {
		role := "user"
		if m.Role == "assistant" {
			role = "assistant"
		}
		body.Messages = append(body.Messages, anthropicMessage{Role: role, Content: []anthropicBlock{{Type: "text", Text: m.Text}}})
	}
	call := func(ctx context.Context) (reply, error) {
		var msg anthropicResponse
		if err := postJSON(ctx, b.client, b.endpoint, b.header, body, &msg); err != nil {
			return reply{}, err
		}
		var text strings.Builder
		for _, c := range msg.Content {
			if c.Type == "text" {
				text.WriteString(c.Text)
			}
		}
		u := msg.Usage
		rep := reply{Text: text.String(), Usage: Usage{
			InputTokens:  u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens,
			OutputTokens: u.OutputTokens,
		}}
		switch msg.StopReason {
		case "refusal":
			rep.Stop = stopRefusal
		case "max_tokens":
			rep.Stop = stopMaxTokens
		}
		return rep, nil
	}
	return retrying(ctx, b.cfg, ProviderAnthropic, call)
}
