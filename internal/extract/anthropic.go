package extract

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

// DefaultAnthropicModel is the model of the anthropic provider.
const DefaultAnthropicModel = "claude-haiku-4-5"

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
// The SDK's own retries are off: [retrying] decides, so that a 429 without
// retry-after is not retried and the delays follow [Config].
type anthropicBackend struct {
	client anthropic.Client
	model  string
	cfg    Config
}

func newAnthropic(cfg Config) (Extractor, error) {
	opts := []option.RequestOption{option.WithoutEnvironmentDefaults(), option.WithMaxRetries(0)}
	switch {
	case cfg.APIKey != "":
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	case cfg.Getenv("ANTHROPIC_API_KEY") != "":
		opts = append(opts, option.WithAPIKey(cfg.Getenv("ANTHROPIC_API_KEY")))
	case cfg.Getenv("ANTHROPIC_AUTH_TOKEN") != "":
		opts = append(opts, option.WithAuthToken(cfg.Getenv("ANTHROPIC_AUTH_TOKEN")))
	default:
		return nil, fmt.Errorf("extract: anthropic: no API key: set ANTHROPIC_API_KEY: %w", ErrUnavailable)
	}
	base := cfg.BaseURL
	if base == "" {
		base = cfg.Getenv("ANTHROPIC_BASE_URL")
	}
	if base != "" {
		opts = append(opts, option.WithBaseURL(base))
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	model := cfg.Model
	if model == "" {
		model = DefaultAnthropicModel
	}
	be := &anthropicBackend{client: anthropic.NewClient(opts...), model: model, cfg: cfg}
	return &llm{name: ProviderAnthropic, be: be, cfg: cfg}, nil
}

func (b *anthropicBackend) complete(ctx context.Context, req request) (reply, error) {
	params := anthropic.MessageNewParams{
		Model:       anthropic.Model(b.model),
		MaxTokens:   int64(req.MaxTokens),
		System:      []anthropic.TextBlockParam{{Text: req.System}},
		Temperature: anthropic.Float(0),
	}
	for _, m := range req.Messages {
		block := anthropic.NewTextBlock(m.Text)
		if m.Role == "assistant" {
			params.Messages = append(params.Messages, anthropic.NewAssistantMessage(block))
		} else {
			params.Messages = append(params.Messages, anthropic.NewUserMessage(block))
		}
	}
	call := func(ctx context.Context) (reply, error) {
		msg, err := b.client.Messages.New(ctx, params)
		if err != nil {
			return reply{}, err
		}
		var text strings.Builder
		for _, c := range msg.Content {
			if tb, ok := c.AsAny().(anthropic.TextBlock); ok {
				text.WriteString(tb.Text)
			}
		}
		u := msg.Usage
		rep := reply{Text: text.String(), Usage: Usage{
			InputTokens:  int(u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens),
			OutputTokens: int(u.OutputTokens),
		}}
		switch msg.StopReason {
		case anthropic.StopReasonRefusal:
			rep.Stop = stopRefusal
		case anthropic.StopReasonMaxTokens:
			rep.Stop = stopMaxTokens
		}
		return rep, nil
	}
	return retrying(ctx, b.cfg, ProviderAnthropic, call, func(err error) (httpFailure, bool) {
		var ae *anthropic.Error
		if !errors.As(err, &ae) || ae.Response == nil {
			return httpFailure{}, false
		}
		return httpFailure{Status: ae.StatusCode, Header: ae.Response.Header, Type: string(ae.Type()), RequestID: ae.RequestID}, true
	})
}
