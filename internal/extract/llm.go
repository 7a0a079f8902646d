package extract

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/memory"

	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// A backend sends one request to a model and returns its reply. Usage in
// the reply counts the call; on error the reply's Usage says what is known.
type backend interface {
	complete(ctx context.Context, req request) (reply, error)
}

// llm is the [Extractor] of the model providers: the guard, the chunks,
// the prompt, validation and the repair request around a backend.
type llm struct {
	name string
	be   backend
	cfg  Config
}

func (x *llm) Name() string { return x.name }

// Extract implements [Extractor].
func (x *llm) Extract(ctx context.Context, d *transcript.Digest) ([]Candidate, Usage, error) {
	var u Usage
	reqs, rel, err := plan(ctx, x.cfg, d)
	if err != nil {
		return nil, u, fmt.Errorf("extract: %s: %w", x.name, err)
	}
	known := knownMemories(rel)
	var texts []string
	for _, r := range reqs {
		texts = append(texts, r.chunk)
	}
	ps := newPaths(d.Meta.CWD, func() string { return strings.Join(texts, "\n") })
	g := newGuard(x.cfg)
	var all []Candidate
	for i, r := range reqs {
		cands, cu, err := x.extractChunk(ctx, g, r.request, ps, known)
		u.add(cu)
		if errors.Is(err, ErrBudget) && i > 0 {
			u.Skipped = len(reqs) - i
			x.cfg.Logger.Debug("extract: budget spent, chunks skipped", "provider", x.name, "skipped", u.Skipped, "err", err)
			break
		}
		if err != nil && len(reqs) > 1 {
			return nil, u, fmt.Errorf("extract: %s: chunk %d of %d: %w", x.name, r.part, len(reqs), err)
		}
		if err != nil {
			return nil, u, fmt.Errorf("extract: %s: %w", x.name, err)
		}
		all = append(all, cands...)
	}
	return finish(all, x.cfg.Redactor, d.Meta.End), u, nil
}

// A plannedRequest is the first request about one chunk of a digest.
type plannedRequest struct {
	request
	chunk string // the chunk's text, redacted
	part  int    // 1-based position of the chunk in the digest
}

// plan returns the requests an extraction of d begins with, one per
// chunk, in the order they are sent: the last chunk first (the session's
// end, its files and its failures, where the fixes and what is left to do
// are), then back to the first, so that a budget that runs out costs the
// beginning. Each names the related memories, which it returns too. It
// returns [ErrTooShort] when d shows too little work.
func plan(ctx context.Context, cfg Config, d *transcript.Digest) ([]plannedRequest, []Related, error) {
	if why := tooLittle(d.Work(), cfg.MinUserTurns); why != "" {
		return nil, nil, fmt.Errorf("%w (%s)", ErrTooShort, why)
	}
	rel := related(ctx, cfg, d)
	memories := relatedMessage(rel)
	var chunks []string
	if cfg.ChunkTokens > 0 {
		for _, c := range d.Chunks(cfg.ChunkTokens) {
			chunks = append(chunks, cfg.Redactor.String(c.Text))
		}
	} else {
		chunks = []string{cfg.Redactor.String(d.String())}
	}
	n := len(chunks)
	out := make([]plannedRequest, 0, n)
	for i := n - 1; i >= 0; i-- {
		out = append(out, plannedRequest{
			request: request{
				System:    systemPrompt,
				Messages:  []message{{Role: "user", Text: memories + digestMessage(chunks[i], i+1, n)}},
				MaxTokens: cfg.MaxOutputTokens,
			},
			chunk: chunks[i], part: i + 1,
		})
	}
	return out, rel, nil
}

// extractChunk asks the model about one chunk, and once more with the
// problems when the reply is invalid. known are the memories the request
// named. What validation fixed or dropped is logged, and a reply with no
// valid item is logged raw (redacted, bounded) before it fails.
func (x *llm) extractChunk(ctx context.Context, g *guard, req request, ps paths, known map[string]string) ([]Candidate, Usage, error) {
	var u Usage
	var first []Candidate // the valid items of the first reply, should the repair do worse
	for attempt := 0; ; attempt++ {
		if err := g.allow(ctx, req.estimate()); err != nil {
			return nil, u, err
		}
		rep, err := x.be.complete(ctx, req)
		u.add(rep.Usage)
		if rerr := g.record(ctx, rep.Usage); rerr != nil {
			return nil, u, fmt.Errorf("record usage: %w", rerr)
		}
		if err != nil {
			return nil, u, err
		}
		if rep.Stop == stopRefusal {
			return nil, u, fmt.Errorf("%w: %s", ErrRefused, excerpt(rep.Text, 200))
		}
		r := parseReply(rep.Text, ps, known)
		cands, problems := r.cands, r.problems
		if len(r.notes) > 0 {
			x.cfg.Logger.Info("extract: reply fixed", "provider", x.name, "notes", r.notes)
		}
		if len(problems) == 0 {
			return cands, u, nil
		}
		if rep.Stop == stopMaxTokens {
			problems = append([]string{"the reply was cut off at the output limit: give fewer and shorter items"}, problems...)
		}
		if attempt > 0 {
			if len(cands) < len(first) {
				cands = first
			}
			if len(cands) == 0 {
				x.cfg.Logger.Warn("extract: invalid reply after a repair request", "provider", x.name,
					"problems", problems, "raw", x.cfg.Redactor.String(excerpt(rep.Text, maxLoggedReply)))
				return nil, u, &OutputError{Provider: x.name, Raw: rep.Text, Problems: problems}
			}
			// Keep the valid items; say which were dropped and why, with the reply.
			x.cfg.Logger.Warn("extract: invalid items dropped", "provider", x.name, "kept", len(cands),
				"problems", problems, "raw", x.cfg.Redactor.String(excerpt(rep.Text, maxLoggedReply)))
			return cands, u, nil
		}
		first = cands
		x.cfg.Logger.Debug("extract: invalid reply, asking for a repair", "provider", x.name, "problems", problems)
		prev := rep.Text
		if strings.TrimSpace(prev) == "" {
			prev = "(an empty reply)"
		}
		req.Messages = append(req.Messages,
			message{Role: "assistant", Text: prev},
			message{Role: "user", Text: repairMessage(problems)})
	}
}

// maxLoggedReply bounds the characters of a model's reply in the log.
const maxLoggedReply = 4000

// finish redacts the candidates' text, writes relative dates as absolute
// ones as of when (the session's end; skipped when zero), drops exact
// repeats (by description) and makes names unique.
func finish(cands []Candidate, r *redact.Redactor, when time.Time) []Candidate {
	out := make([]Candidate, 0, len(cands))
	seen := map[string]bool{}
	names := map[string]bool{}
	for _, c := range cands {
		c.Description = r.String(c.Description)
		c.Fact = r.String(c.Fact)
		c.Why = r.String(c.Why)
		if !when.IsZero() {
			c.Description = memory.AbsoluteDates(c.Description, when)
			c.Fact = memory.AbsoluteDates(c.Fact, when)
			if utf8.RuneCountInString(c.Description) > memory.MaxDescriptionLen {
				c.Description = describe(c.Description)
			}
		}
		key := strings.ToLower(c.Description)
		if seen[key] {
			continue
		}
		seen[key] = true
		if c.Name != "" {
			base := c.Name
			for k := 2; names[c.Name]; k++ {
				suffix := "-" + strconv.Itoa(k)
				c.Name = base[:min(len(base), 64-len(suffix))] + suffix
			}
			names[c.Name] = true
		}
		out = append(out, c)
	}
	return out
}

// excerpt returns the first max characters of s on one line.
func excerpt(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return string([]rune(s)[:max]) + "…"
}
