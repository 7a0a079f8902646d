package worker

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/provenance"
	"github.com/mnemo-dev/mnemo/internal/queue"
	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// Usage is what extraction cost.
type Usage struct{ InputTokens, OutputTokens int }

// An Extractor turns a session's digest into candidate facts.
type Extractor interface {
	Name() string
	Extract(ctx context.Context, d *transcript.Digest) ([]consolidate.Fact, Usage, error)
}

// ErrSkip, wrapped by an extractor's error, means the job is done with
// nothing extracted on purpose (a session too short, a budget spent): it
// is completed, not retried.
var ErrSkip = errors.New("skipped")

// noConversation is why a job that read lines of its transcript and found
// no conversation in them is skipped.
const noConversation = "no conversation in what was read: not a Claude Code, Codex or Gemini CLI session, or only records of other kinds"

// A Pipeline processes one job: digest, extract, consolidate.
type Pipeline struct {
	Queue     *queue.Queue
	Extractor Extractor
	// ExtractorFor, when set, gives the extractor a job names (queued with
	// --extractor, or by a hook that ran with another $MNEMO_EXTRACTOR)
	// when it is not Extractor's; it may cache them.
	ExtractorFor func(name string) (Extractor, error)
	// Consolidator opens what a job's facts are merged into, index synced;
	// the returned function closes it.
	Consolidator func(ctx context.Context, j queue.Job) (*consolidate.Consolidator, func(), error)
	Redact       func(string) string
	Log          *slog.Logger
	Now          func() time.Time
	// OnOutcome, when set, hears what became of each fact.
	OnOutcome func(j queue.Job, o consolidate.Outcome)
}

// Process reads the job's transcript from where its session's previous job
// stopped to the end of its last complete line, with the transcripts of
// the session's sub-agents (each from where it was left), and consolidates
// what the extractor finds there.
func (p *Pipeline) Process(ctx context.Context, j queue.Job) (queue.Result, error) {
	start, err := p.Queue.Offset(ctx, j.Session, j.Transcript)
	if err != nil {
		return queue.Result{}, err
	}
	b := transcript.NewBuilder(transcript.Options{Redact: p.Redact, CWD: j.Cwd, Skipped: p.logSkipped(j)})
	end, err := b.ReadFile(ctx, j.Transcript, start)
	if err != nil {
		return queue.Result{}, err
	}
	res := queue.Result{StartOff: start, EndOff: end}
	if res.Parts, err = p.readAgents(ctx, b, j); err != nil {
		return queue.Result{}, err
	}
	d := b.Digest()
	if len(d.Turns) == 0 {
		if end > start {
			// Something was read and none of it was a conversation: say so,
			// rather than report a job done with nothing.
			res.Skipped = noConversation
		}
		return res, nil
	}
	x, err := p.extractorOf(j)
	if err != nil {
		return res, err
	}
	facts, usage, err := x.Extract(ctx, d)
	res.TokensIn, res.TokensOut = usage.InputTokens, usage.OutputTokens
	if errors.Is(err, ErrSkip) {
		// Keep the session's offset where it was: a session processed in
		// short pieces (a PreCompact, then a SessionEnd) is read again
		// whole by its next job, rather than skipped piece by piece. What
		// the offline pass kept of it is consolidated all the same (said
		// again by the next job, it is a duplicate).
		p.Log.Info("extraction skipped", "job", j.ID, "why", err)
		res.EndOff, res.Parts = start, nil
		res.Skipped = strings.TrimPrefix(err.Error(), ErrSkip.Error()+": ")
	} else if err != nil {
		return res, fmt.Errorf("extract (%s): %w", x.Name(), err)
	}
	if len(facts) == 0 {
		return res, nil
	}
	if len(facts) > maxFactsPerJob {
		p.Log.Warn("more candidates than a person can review: the most confident kept", "job", j.ID, "kept", maxFactsPerJob, "of", len(facts))
		facts = mostConfident(facts, maxFactsPerJob)
	}
	n, err := p.consolidate(ctx, j, d, facts, fmt.Sprintf("transcript %s, bytes %d-%d", j.Session, start, end))
	res.Facts = n
	return res, err
}

// logSkipped returns what hears of the lines of j's transcripts too long
// to read: each is logged, where it is and how long; the job goes on
// without it.
func (p *Pipeline) logSkipped(j queue.Job) func(path string, line int, off int64, size int) {
	return func(path string, line int, off int64, size int) {
		p.Log.Warn("transcript line too long to read: skipped", "job", j.ID, "file", path,
			"line", line, "offset", off, "bytes", size, "limit", transcript.DefaultMaxLineBytes)
	}
}

// readAgents reads into b the transcripts of the session's sub-agents,
// each from where its previous job stopped, and returns how far each was
// read.
func (p *Pipeline) readAgents(ctx context.Context, b *transcript.Builder, j queue.Job) ([]queue.Part, error) {
	agents, err := transcript.SubagentFiles(j.Transcript)
	if err != nil {
		return nil, err
	}
	var parts []queue.Part
	for _, path := range agents {
		key := PartSession(j.Session, path)
		off, err := p.Queue.Offset(ctx, key, path)
		if err != nil {
			return nil, err
		}
		end, err := b.ReadFile(ctx, path, off)
		if err != nil {
			return nil, err
		}
		parts = append(parts, queue.Part{Session: key, Transcript: path, EndOff: end})
	}
	return parts, nil
}

// maxFactsPerJob bounds the candidates one job consolidates: a session
// worth remembering yields a few dozen facts (a model is asked for at most
// 12 a request), and each one drafted waits for a person. A transcript
// that yields more (thousands of prompts, each stating something) keeps
// the most confident, and the job still ends well within its lease.
const maxFactsPerJob = 100

// mostConfident returns the n most confident facts, in the order the
// extractor gave them (the order of the session).
func mostConfident(facts []consolidate.Fact, n int) []consolidate.Fact {
	idx := make([]int, len(facts))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(facts[b].Confidence, facts[a].Confidence) })
	idx = idx[:n]
	slices.Sort(idx)
	out := make([]consolidate.Fact, n)
	for i, k := range idx {
		out[i] = facts[k]
	}
	return out
}

// consolidate merges the facts extracted from d into the vaults and the
// inbox, and returns how many were; at says where in the transcripts
// they were read, for their provenance.
func (p *Pipeline) consolidate(ctx context.Context, j queue.Job, d *transcript.Digest, facts []consolidate.Fact, at string) (int, error) {
	c, closeFn, err := p.Consolidator(ctx, j)
	if err != nil {
		return 0, err
	}
	defer closeFn()
	said := personSaid(d)
	runs := commandRuns(d)
	excerpts := passages(d, facts)
	var outcomes []string
	n, dropped := 0, 0
	for i, f := range facts {
		f, v := p.provenance(j, d, f, said, runs, at)
		if f.Excerpt == "" { // what review shows the fact came from
			f.Excerpt = excerpts[i]
		}
		o, err := c.Add(ctx, f)
		if badFact(err) {
			// One fact that cannot be a memory (a secret in it, a field no
			// reader accepts) is dropped, not the job: the error names the
			// field and the problem; the fact's text goes nowhere.
			p.Log.Warn("candidate dropped", "job", j.ID, "fact", i+1, "of", len(facts), "why", err.Error())
			dropped++
			continue
		}
		if err != nil {
			return n, fmt.Errorf("consolidate fact %d of %d: %w", i+1, len(facts), err)
		}
		if !f.Stated && !f.Confirmed { // logged once it is known to hold no secret
			p.Log.Info("not stated by the person: a draft", "job", j.ID, "name", o.Name, "why", v.Reason())
		}
		if o.Rejection != nil {
			p.Log.Info(rejectedNote(f, o), "job", j.ID, "name", o.Name, "rejection", o.Rejection.String())
		}
		outcomes = append(outcomes, string(o.Action)+":"+o.Name)
		if p.OnOutcome != nil {
			p.OnOutcome(j, o)
		}
		n++
	}
	p.Log.Info("consolidated", "job", j.ID, "outcomes", strings.Join(outcomes, " "), "dropped", dropped)
	return n, nil
}

// rejectedNote says, for the log, what a rejection of a draft that said
// what f says did to it (o, its outcome, names the rejection).
func rejectedNote(f consolidate.Fact, o consolidate.Outcome) string {
	switch {
	case o.Action != consolidate.Rejected:
		return "a teammate rejected it before: it waits for review"
	case o.Rejection.Own:
		return "dropped: you rejected it before"
	case !f.Stated:
		return "dropped: a teammate rejected it, and the person did not state it"
	}
	return "dropped: a teammate rejected it after it was said"
}

// passages returns, for each of facts without an excerpt, the passage of
// d it most likely came from ([transcript.Digest.Passages]: the digest
// read once for all of them); "" for the others.
func passages(d *transcript.Digest, facts []consolidate.Fact) []string {
	texts := make([]string, len(facts))
	for i, f := range facts {
		if f.Excerpt == "" {
			texts[i] = f.Description + "\n" + f.Body
		}
	}
	return d.Passages(texts, consolidate.MaxExcerpt)
}

// provenance sets what the session shows of f: whether the person's own
// words state it (whatever the extractor says of it: a model's
// from_tool_output false is a hint), whether a command confirms what the
// extractor says one confirms, its source, when it was said and where.
// It returns the verdict of the person's words too.
func (p *Pipeline) provenance(j queue.Job, d *transcript.Digest, f consolidate.Fact, said *provenance.Said, runs map[string]bool, at string) (consolidate.Fact, provenance.Verdict) {
	v := said.Check(f.Description + "\n" + f.Body)
	f.Stated = v.Stated
	if f.Confirmed && !confirmed(runs, said, f) {
		p.Log.Info("not confirmed by a command of the session", "job", j.ID, "fact", f.Name)
		f.Confirmed = false
	}
	if f.Source == "" {
		id := d.Meta.SessionID // the session as Claude Code names it
		if id == "" {
			id = j.Session
		}
		f.Source = "session:" + shortID(id)
	}
	if f.At.IsZero() {
		f.At = d.Meta.End // "next week" meant the week after the session
	}
	f.Why = strings.TrimSpace(f.Why + " (" + at + ")")
	return f, v
}

// PartSession is the key under which the queue keeps the offset of a
// sub-agent's transcript read with its session's: the session's key and
// the file's name, "<session>/agent-<id>".
func PartSession(session, path string) string {
	return session + "/" + strings.TrimSuffix(filepath.Base(path), ".jsonl")
}

// shortID names a session in a fact's source: the first 8 letters,
// digits, '-' and '_' of its id (a UUID's first group), or when it has none,
// 8 hex digits of its digest. An id is any string a transcript or a hook
// holds; cut at a byte it could split a character.
func shortID(id string) string {
	var b strings.Builder
	for _, r := range id {
		if b.Len() == 8 {
			break
		}
		if r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_') {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		sum := sha256.Sum256([]byte(id))
		return hex.EncodeToString(sum[:4])
	}
	return b.String()
}

// personSaid gathers what the person said in a digest.
func personSaid(d *transcript.Digest) *provenance.Said {
	var ss []provenance.Statement
	for s := range d.Sayings() {
		ss = append(ss, provenance.Statement{Text: s.Text, At: s.At, Chosen: s.Chosen, Context: s.Described})
	}
	return provenance.NewSaid(ss...)
}

// badFact reports whether err is a problem of the fact itself (a secret, or
// a value no memory may hold), which drops the fact, rather than of the
// vault or the index, which fails the job so that it is retried.
func badFact(err error) bool {
	var pe *memory.ParseError
	return errors.Is(err, redact.ErrSecret) || errors.As(err, &pe)
}

// extractorOf is the extractor for j: the one it was queued for, else the
// pipeline's own.
func (p *Pipeline) extractorOf(j queue.Job) (Extractor, error) {
	if j.Extractor == "" || j.Extractor == p.Extractor.Name() || p.ExtractorFor == nil {
		return p.Extractor, nil
	}
	x, err := p.ExtractorFor(j.Extractor)
	if err != nil {
		return nil, fmt.Errorf("extractor %q of job %d: %w", j.Extractor, j.ID, err)
	}
	return x, nil
}
