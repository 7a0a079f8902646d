package extract

import (
	"errors"
	"os/exec"
	"testing"
)

func TestNew(t *testing.T) {
	noClaude := func(string) (string, error) { return "", exec.ErrNotFound }
	claude := func(string) (string, error) { return "/usr/local/bin/claude", nil }
	tests := []struct {
		name     string
		provider string
		env      map[string]string
		lookPath func(string) (string, error)
		binary   string
		want     string // Name(), or "" for an error
		wantErr  error
	}{
		{"auto, nothing set up", "", nil, noClaude, "", ProviderHeuristic, nil},
		{"auto, Anthropic key", "auto", map[string]string{"ANTHROPIC_API_KEY": "sk-ant-x"}, claude, "", ProviderAnthropic, nil},
		{"auto, Anthropic token", "auto", map[string]string{"ANTHROPIC_AUTH_TOKEN": "t"}, claude, "", ProviderAnthropic, nil},
		{"auto, claude on PATH", "auto", map[string]string{"OPENAI_API_KEY": "sk"}, claude, "", ProviderClaudeCLI, nil},
		{"auto, OpenAI base URL", "auto", map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:11434/v1"}, noClaude, "", ProviderOpenAI, nil},
		{"auto, OpenAI key", "auto", map[string]string{"OPENAI_API_KEY": "sk"}, noClaude, "", ProviderOpenAI, nil},
		{"auto, claude binary configured but missing", "auto", nil, claude, "/nonexistent/claude", ProviderHeuristic, nil},
		{"heuristic", "heuristic", map[string]string{"ANTHROPIC_API_KEY": "sk-ant-x"}, claude, "", ProviderHeuristic, nil},
		{"anthropic without a key", "anthropic", nil, claude, "", "", ErrUnavailable},
		{"claude-cli without claude", "claude-cli", nil, noClaude, "", "", ErrUnavailable},
		{"openai without an endpoint", "openai", nil, claude, "", "", ErrUnavailable},
		{"unknown provider", "gemini", nil, claude, "", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig(func(k string) string { return tt.env[k] })
			cfg.Provider, cfg.LookPath, cfg.ClaudeBinary = tt.provider, tt.lookPath, tt.binary
			x, err := New(cfg)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("New(%q) = %s, want an error", tt.provider, x.Name())
				}
				if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
					t.Errorf("New(%q) error = %v, want %v", tt.provider, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("New(%q): %v", tt.provider, err)
			}
			if got := x.Name(); got != tt.want {
				t.Errorf("New(%q).Name() = %q, want %q", tt.provider, got, tt.want)
			}
		})
	}
}

func TestConfigDefaults(t *testing.T) {
	c := Config{MaxTokensPerDay: -1, ChunkTokens: 10}.withDefaults()
	if c.Provider != ProviderAuto || c.MaxTokensPerSession != DefaultMaxTokensPerSession || c.MinUserTurns != DefaultMinUserTurns ||
		c.MaxRetries != DefaultMaxRetries || c.Backoff != DefaultBackoff || c.Getenv == nil || c.Ledger == nil || c.Redactor == nil {
		t.Errorf("withDefaults left a zero field: %+v", c)
	}
	if c.MaxTokensPerDay != -1 {
		t.Errorf("MaxTokensPerDay = %d, want -1 (no limit) kept", c.MaxTokensPerDay)
	}
	if c.ChunkTokens != minChunkTokens {
		t.Errorf("ChunkTokens = %d, want the floor %d", c.ChunkTokens, minChunkTokens)
	}
}
