package extract

import (
	"context"
	"errors"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// DefaultOpenAIModel is the model of the openai provider when neither
// [Config.Model] nor $OPENAI_MODEL names one.
const DefaultOpenAIModel = "gpt-4o-mini"

// openaiBackend calls a chat completions endpoint at temperature 0. The
// SDK's own retries are off, as for [anthropicBackend].
type openaiBackend struct {
	client openai.Client
	model  string
	cfg    Config
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
	if key == "" {
		key = "none" // local servers (Ollama, vLLM, LM Studio) ignore it; the SDK wants one
	}
	opts := []option.RequestOption{option.WithAPIKey(key), option.WithMaxRetries(0)}
	if base != "" {
		opts = append(opts, option.WithBaseURL(base))
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	model := cfg.Model
	if model == "" {
		model = cfg.Getenv("OPENAI_MODEL")
	}
	if model == "" {
		model = DefaultOpenAIModel
	}
	be := &openaiBackend{client: openai.NewClient(opts...), model: model, cfg: cfg}
	return &llm{name: ProviderOpenAI, be: be, cfg: cfg}, nil
}

func (b *openaiBackend) complete(ctx context.Context, req request) (reply, error) {
	params := openai.ChatCompletionNewParams{
		Model:       b.model,
		Messages:    []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(req.System)},
		MaxTokens:   openai.Int(int64(req.MaxTokens)),
		Temperature: openai.Float(0),
	}
	for _, m := range req.Messages {
		if m.Role == "assistant" {
			params.Messages = append(params.Messages, openai.AssistantMessage(m.Text))
		} else {
			params.Messages = append(params.Messages, openai.UserMessage(m.Text))
		}
	}
	call := func(ctx context.Context) (reply, error) {
		res, err := b.client.Chat.Completions.New(ctx, params)
		if err != nil {
			return reply{}, err
		}
		rep := reply{Usage: Usage{InputTokens: int(res.Usage.PromptTokens), OutputTokens: int(res.Usage.CompletionTokens)}}
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
	return retrying(ctx, b.cfg, ProviderOpenAI, call, func(err error) (httpFailure, bool) {
		var oe *openai.Error
		if !errors.As(err, &oe) || oe.Response == nil {
			return httpFailure{}, false
		}
		return httpFailure{Status: oe.StatusCode, Header: oe.Response.Header, Type: oe.Type, RequestID: oe.Response.Header.Get("x-request-id")}, true
	})
}
