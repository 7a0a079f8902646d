package extract

import (
	"context"
	"sync"
	"time"

	"github.com/mnemo-dev/mnemo/internal/plural"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// A Ledger keeps the tokens spent per day, across processes: the worker
// backs it with its queue database. Day is a date, "2006-01-02", in the
// local time of [Config.Now].
type Ledger interface {
	Spent(ctx context.Context, day string) (int, error)
	Record(ctx context.Context, day string, u Usage) error
}

// MemoryLedger is a [Ledger] held in memory, for one process. It is safe
// for concurrent use.
type MemoryLedger struct {
	mu   sync.Mutex // guards days
	days map[string]int
}

// NewMemoryLedger returns an empty MemoryLedger.
func NewMemoryLedger() *MemoryLedger { return &MemoryLedger{days: make(map[string]int)} }

// Spent returns the tokens recorded for day.
func (l *MemoryLedger) Spent(_ context.Context, day string) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.days[day], nil
}

// Record adds u's tokens to day.
func (l *MemoryLedger) Record(_ context.Context, day string, u Usage) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.days[day] += u.Total()
	return nil
}

// A guard checks each model call of one extraction against the budgets
// and records what it spent.
type guard struct {
	cfg   Config
	day   string
	spent int // this extraction's tokens
}

func newGuard(cfg Config) *guard {
	return &guard{cfg: cfg, day: day(cfg.Now())}
}

func day(t time.Time) string { return t.Format(time.DateOnly) }

// allow returns a [*BudgetError] when a call estimated at need tokens
// would overrun the session's or the day's budget.
func (g *guard) allow(ctx context.Context, need int) error {
	if lim := g.cfg.MaxTokensPerSession; lim > 0 && g.spent+need > lim {
		return &BudgetError{Scope: "session", Limit: lim, Spent: g.spent, Needed: need}
	}
	if lim := g.cfg.MaxTokensPerDay; lim > 0 {
		spent, err := g.cfg.Ledger.Spent(ctx, g.day)
		if err != nil {
			return err
		}
		if spent+need > lim {
			return &BudgetError{Scope: "day", Limit: lim, Spent: spent, Needed: need}
		}
	}
	return nil
}

// record adds a call's usage to the session and to the ledger.
func (g *guard) record(ctx context.Context, u Usage) error {
	g.spent += u.Total()
	return g.cfg.Ledger.Record(ctx, g.day, u)
}

// UserTurns counts the prompts a person typed in d: turns opened by a
// prompt that is not only a slash command. Sub-agent turns, whose "prompt"
// is the parent agent's instructions, do not count.
func UserTurns(d *transcript.Digest) int { return d.Work().Prompts }

// minWorkCalls is the number of tool calls that make a session worth
// reading even without an edit, a failure or a second word from the person:
// exploring a codebase finds where things are.
const minWorkCalls = 5

// tooLittle says why a session that shows w is not worth a model call, ""
// when it is. A session is worth one when the person spoke (prompts,
// answers and rejections alike) at least least times, or answered or
// rejected anything, or when it edited a file, failed at something or
// made minWorkCalls tool calls: the work of one prompt and its sub-agents
// counts, not the number of prompts. least <= 0 sends everything.
func tooLittle(w transcript.Work, least int) string {
	if least <= 0 || w.Spoke() >= least || w.Answers+w.Rejections > 0 ||
		w.Edits > 0 || w.Failures > 0 || w.Calls >= minWorkCalls {
		return ""
	}
	return plural.N(w.Prompts, "prompt", "prompts") + " and " + plural.N(w.Calls, "tool call", "tool calls") +
		"; no edit, failure, answer or rejection"
}
