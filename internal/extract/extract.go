package extract

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"time"

	"github.com/mnemo-dev/mnemo/internal/approval"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// A Candidate is one fact an extractor proposes. It is not a memory yet:
// package consolidate decides whether it duplicates, extends or
// contradicts one, and whether it goes to the vault or the inbox.
type Candidate struct {
	Name        string      `json:"name"`        // a slug ([memory.ValidName]) or "" (the caller slugs the description)
	Description string      `json:"description"` // one line of at most 150 characters: the recall key
	Fact        string      `json:"fact"`        // the body: a few sentences
	Type        memory.Type `json:"type"`        // user, feedback, project, reference
	Category    string      `json:"category"`    // one of [Categories]
	Files       []string    `json:"files"`       // paths relative to the session's cwd, as mentioned
	Confidence  float64     `json:"confidence"`  // 0..1
	Why         string      `json:"why"`         // provenance in words
	// FromToolOutput reports that the claim comes only from tool output
	// (a fetched page, a file's content): such a candidate is never
	// approved automatically.
	FromToolOutput bool `json:"from_tool_output"`
	// Evidence is what the extractor says the fact rests on ("" when it
	// did not say). It is a claim: the worker checks stated and confirmed
	// against the session, and an inferred fact's confidence is capped by
	// the policy ([approval.Cap]).
	Evidence approval.Evidence `json:"evidence,omitempty"`
	// Relation says how the candidate stands to one of the [Related]
	// memories the request named: "", new, same, update or contradicts
	// (consolidate's Relation kinds); Memory and Where name that memory.
	// A name the request did not hold is dropped to new.
	Relation string `json:"relation,omitempty"`
	Memory   string `json:"memory,omitempty"`
	Where    string `json:"where,omitempty"`
}

// Categories of candidates.
const (
	CategoryDecision   = "decision"   // a choice made, with its rationale
	CategoryConvention = "convention" // how things are done here: naming, errors, imports, tools
	CategoryDeadEnd    = "dead_end"   // an approach that failed, so it is not tried again
	CategoryTodo       = "todo"       // work left unresolved
	CategoryPreference = "preference" // how the user wants to work; corrections
	CategoryReference  = "reference"  // a pointer to something outside the code
)

// Categories lists every valid [Candidate.Category].
var Categories = []string{CategoryDecision, CategoryConvention, CategoryDeadEnd, CategoryTodo, CategoryPreference, CategoryReference}

// Usage is what an extraction spent. Tokens are as the provider reported
// them (input counts cache reads and writes too); the heuristic extractor
// spends none.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	Calls        int `json:"calls"` // model calls, repairs included
	// Skipped counts the digest's chunks left unread because a budget ran
	// out after the first call: the candidates come from the chunks read.
	Skipped int `json:"skipped,omitempty"`
}

// Total returns the input and output tokens together.
func (u Usage) Total() int { return u.InputTokens + u.OutputTokens }

func (u *Usage) add(v Usage) {
	u.InputTokens += v.InputTokens
	u.OutputTokens += v.OutputTokens
	u.Calls += v.Calls
	u.Skipped += v.Skipped
}

// An Extractor proposes candidate memories from a session digest.
type Extractor interface {
	// Name is the provider: anthropic, claude-cli, openai or heuristic.
	Name() string
	// Extract returns the candidates found in d, none when nothing
	// durable happened, and what the extraction spent (also on error).
	Extract(ctx context.Context, d *transcript.Digest) ([]Candidate, Usage, error)
}

// Providers, as [Config.Provider] names them.
const (
	ProviderAuto      = "auto"
	ProviderAnthropic = "anthropic"
	ProviderClaudeCLI = "claude-cli"
	ProviderOpenAI    = "openai"
	ProviderHeuristic = "heuristic"
)

// Config chooses and tunes an extractor. For the numeric fields, 0 means
// the default [DefaultConfig] gives and a negative value means no limit
// (or, for MaxRetries, no retry).
type Config struct {
	Provider     string // auto (the default), anthropic, claude-cli, openai or heuristic
	Model        string // default: claude-haiku-4-5, haiku for claude-cli, $OPENAI_MODEL or gpt-4o-mini for openai
	BaseURL      string // default: $ANTHROPIC_BASE_URL or $OPENAI_BASE_URL
	APIKey       string // default: $ANTHROPIC_API_KEY (else $ANTHROPIC_AUTH_TOKEN) or $OPENAI_API_KEY
	ClaudeBinary string // default: claude, looked up on PATH

	MaxTokensPerSession int // budget of one Extract call, input and output tokens together
	MaxTokensPerDay     int // budget of all calls on one day, kept by Ledger
	MinUserTurns        int // a digest in which the person spoke fewer times (prompts, answers, rejections) and that shows no edit, failure, answer, rejection or run of tool calls is not sent to a model (ErrTooShort)
	ChunkTokens         int // the largest piece of digest sent in one call
	MaxOutputTokens     int // max_tokens of one call

	MaxRetries    int           // retries of one call after 429 (with retry-after), 529, 5xx, 408 or a broken connection
	Backoff       time.Duration // wait before the first retry of a 529, 5xx or broken connection; doubles each time
	MaxRetryAfter time.Duration // a 429 asking to wait longer than this is not retried
	Timeout       time.Duration // of one model call, retries excluded

	// Ledger keeps the day's spend across processes. Nil keeps it in
	// memory, for this Extractor only.
	Ledger Ledger

	// Related, when set, gives the memories and drafts a session may say
	// again, update or contradict (recalled for its digest): the model
	// providers send them by name and description, and each candidate
	// says how it stands to them. An error is logged and none are sent.
	Related func(ctx context.Context, d *transcript.Digest) ([]Related, error)

	Getenv   func(string) string          // default os.Getenv
	Environ  func() []string              // the environment a claude child starts from; default os.Environ
	LookPath func(string) (string, error) // default exec.LookPath
	Now      func() time.Time             // default time.Now; the day of the budget is Now's date in Now's location

	HTTPClient *http.Client     // for anthropic and openai, whose redirects are not followed; default one on http.DefaultTransport
	Logger     *slog.Logger     // retries and dropped paths are logged at debug level; default discards
	Redactor   *redact.Redactor // default redact.New(redact.Options{})
}

// Defaults of [Config].
const (
	DefaultMaxTokensPerSession = 60_000
	DefaultMaxTokensPerDay     = 1_000_000
	DefaultMinUserTurns        = 2
	DefaultChunkTokens         = 20_000
	DefaultMaxOutputTokens     = 4096
	DefaultMaxRetries          = 3
	DefaultBackoff             = time.Second
	DefaultMaxRetryAfter       = 60 * time.Second
	DefaultTimeout             = 2 * time.Minute
)

// DefaultConfig returns the configuration mnemo uses when nothing is set:
// provider auto, the default budgets and retries, getenv for the
// environment (os.Getenv when nil).
func DefaultConfig(getenv func(string) string) Config {
	if getenv == nil {
		getenv = os.Getenv
	}
	return Config{
		Provider:            ProviderAuto,
		MaxTokensPerSession: DefaultMaxTokensPerSession,
		MaxTokensPerDay:     DefaultMaxTokensPerDay,
		MinUserTurns:        DefaultMinUserTurns,
		ChunkTokens:         DefaultChunkTokens,
		MaxOutputTokens:     DefaultMaxOutputTokens,
		MaxRetries:          DefaultMaxRetries,
		Backoff:             DefaultBackoff,
		MaxRetryAfter:       DefaultMaxRetryAfter,
		Timeout:             DefaultTimeout,
		Getenv:              getenv,
	}
}

// withDefaults fills what is zero in c.
func (c Config) withDefaults() Config {
	def := DefaultConfig(c.Getenv)
	if c.Provider == "" {
		c.Provider = def.Provider
	}
	setInt := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	setInt(&c.MaxTokensPerSession, def.MaxTokensPerSession)
	setInt(&c.MaxTokensPerDay, def.MaxTokensPerDay)
	setInt(&c.MinUserTurns, def.MinUserTurns)
	setInt(&c.ChunkTokens, def.ChunkTokens)
	setInt(&c.MaxOutputTokens, def.MaxOutputTokens)
	setInt(&c.MaxRetries, def.MaxRetries)
	setDur := func(v *time.Duration, d time.Duration) {
		if *v == 0 {
			*v = d
		}
	}
	setDur(&c.Backoff, def.Backoff)
	setDur(&c.MaxRetryAfter, def.MaxRetryAfter)
	setDur(&c.Timeout, def.Timeout)
	c.Getenv = def.Getenv
	if c.Environ == nil {
		c.Environ = os.Environ
	}
	if c.LookPath == nil {
		c.LookPath = exec.LookPath
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Redactor == nil {
		c.Redactor = redact.New(redact.Options{})
	}
	if c.Ledger == nil {
		c.Ledger = NewMemoryLedger()
	}
	if c.ChunkTokens > 0 && c.ChunkTokens < minChunkTokens {
		c.ChunkTokens = minChunkTokens
	}
	return c
}

// minChunkTokens keeps a chunk worth a call.
const minChunkTokens = 1000

// New returns the extractor cfg names. With provider auto it takes the
// first available: anthropic when an Anthropic key is set
// ($ANTHROPIC_API_KEY or $ANTHROPIC_AUTH_TOKEN, or cfg.APIKey), claude-cli
// when a claude binary is found, openai when $OPENAI_BASE_URL or
// $OPENAI_API_KEY is set, else heuristic; [Extractor.Name] says which.
// A provider named explicitly that is not set up is an error.
func New(cfg Config) (Extractor, error) {
	cfg = cfg.withDefaults()
	switch cfg.Provider {
	case ProviderAuto:
		return newAuto(cfg)
	case ProviderAnthropic:
		return newAnthropic(cfg)
	case ProviderClaudeCLI:
		return newClaudeCLI(cfg)
	case ProviderOpenAI:
		return newOpenAI(cfg)
	case ProviderHeuristic:
		return NewHeuristic(cfg), nil
	}
	return nil, fmt.Errorf("extract: provider %q is not one of auto, anthropic, claude-cli, openai, heuristic", cfg.Provider)
}

func newAuto(cfg Config) (Extractor, error) {
	if anthropicKey(cfg) != "" {
		return newAnthropic(cfg)
	}
	if _, err := claudePath(cfg); err == nil {
		return newClaudeCLI(cfg)
	}
	if cfg.Getenv("OPENAI_BASE_URL") != "" || cfg.Getenv("OPENAI_API_KEY") != "" {
		return newOpenAI(cfg)
	}
	return NewHeuristic(cfg), nil
}
