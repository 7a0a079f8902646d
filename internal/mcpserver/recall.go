package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/plural"
	"github.com/mnemo-dev/mnemo/internal/recall"
	"github.com/mnemo-dev/mnemo/internal/staleness"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// Recall's defaults and bounds.
const (
	recallLimit         = 5
	recallMaxLimit      = 50
	recallMinConfidence = 0.6
	recallBudget        = 3000 // tokens, when the call names none
	recallMaxBudget     = maxResultChars/4 - 1000
	// queryCache is how many queries' vectors the server keeps (2 KB
	// each): an agent repeats a query, and rank may ask the engine again.
	queryCache = 128
)

type recallInput struct {
	Query         string   `json:"query,omitempty" jsonschema:"what to recall: keywords, a question, identifiers or an error message"`
	Q             string   `json:"q,omitempty" jsonschema:"same as query"`
	Text          string   `json:"text,omitempty" jsonschema:"same as query"`
	Files         []string `json:"files,omitempty" jsonschema:"files the question is about, relative to the repository root; memories anchored to them rank higher"`
	Types         []string `json:"types,omitempty" jsonschema:"only memories of these types"`
	Type          string   `json:"type,omitempty" jsonschema:"same as types, for one type"`
	Limit         int      `json:"limit,omitempty" jsonschema:"at most this many memories (default 5)"`
	K             int      `json:"k,omitempty" jsonschema:"same as limit"`
	TopK          int      `json:"top_k,omitempty" jsonschema:"same as limit"`
	MinConfidence *float64 `json:"min_confidence,omitempty" jsonschema:"leave out memories less confident than this (default 0.6)"`
	BudgetTokens  int      `json:"budget_tokens,omitempty" jsonschema:"fit the answer in about this many tokens: whole memories first, then description lines only (default 3000)"`
	Cursor        string   `json:"cursor,omitempty" jsonschema:"the next_cursor of a previous answer, for the results after it"`
}

// A recalled memory, as recall hands it to the model.
type recalled struct {
	Name         string   `json:"name"`
	Vault        string   `json:"vault"`
	Type         string   `json:"type"`
	Description  string   `json:"description"`
	Body         string   `json:"body,omitempty"`
	BodyOmitted  bool     `json:"body_omitted,omitempty"`
	Score        float64  `json:"score"`
	Confidence   float64  `json:"confidence"`
	Written      string   `json:"written,omitempty"`
	Files        []string `json:"files,omitempty"`
	Why          string   `json:"why"`
	Stale        []string `json:"stale,omitempty"`
	Status       string   `json:"status,omitempty"`
	SupersededBy string   `json:"superseded_by,omitempty"`
	// Review is set on a memory no one reviewed (the agent wrote it into
	// the vault itself): "not reviewed: written outside mnemo", and what
	// its check found.
	Review string `json:"review,omitempty"`
}

type recallOutput struct {
	Memories   []recalled `json:"memories"`
	NextCursor string     `json:"next_cursor,omitempty"`
	Note       string     `json:"note"`
}

const recallDescription = `Recall the memories relevant to a question: decisions and their reasons, conventions, the user's corrections, dead ends already explored. Use it before working on a topic or file the memory index mentions, when the user refers to earlier work, or before re-investigating something.

Pass a few keywords (query) and, when the question is about code, the files involved (files): memories anchored to those files rank higher. Each result has its body, score, why it matched, when it was written, and "stale" reasons when the files it describes changed since. A memory is a dated claim: check it against the code before acting on it. Superseded memories are marked and ranked low. Results are cut to budget_tokens; next_cursor pages on. get reads one memory whole.`

func (s *Server) addRecall() {
	addTool(s.mcp, &mcp.Tool{
		Name:        "recall",
		Description: recallDescription,
		Annotations: readOnly("Recall memories"),
		InputSchema: schemaFor[recallInput](func(sc *jsonschema.Schema) {
			enum(sc, "types", typeNames...)
			enum(sc, "type", typeNames...)
			bounds(sc, "limit", 1, recallMaxLimit)
			bounds(sc, "min_confidence", 0, 1)
		}),
		OutputSchema: schemaFor[recallOutput](nil),
	}, s.recall)
}

var typeNames = []string{"user", "feedback", "project", "reference"}

func (s *Server) recall(ctx context.Context, _ *mcp.CallToolRequest, in recallInput) (*mcp.CallToolResult, recallOutput, error) {
	out := recallOutput{Memories: []recalled{}, Note: staleNote}
	q, err := s.recallQuery(in)
	if err != nil {
		return nil, out, err
	}
	start, err := offset(in.Cursor)
	if err != nil {
		return nil, out, err
	}
	limit := min(max(pickInt(in.Limit, in.K, in.TopK), 0), recallMaxLimit)
	if limit == 0 {
		limit = recallLimit
	}
	minConf := recallMinConfidence
	if in.MinConfidence != nil {
		minConf = *in.MinConfidence
	}
	db, done, err := s.index(ctx)
	if err != nil {
		return nil, out, err
	}
	defer done()
	kept, err := s.rank(ctx, db, q, start+limit+1, minConf) // one more tells whether more follow
	if err != nil {
		return nil, out, err
	}
	page := kept[min(start, len(kept)):min(start+limit, len(kept))]
	if start+limit < len(kept) {
		out.NextCursor = cursorAt(start + limit)
	}
	budget := in.BudgetTokens
	if budget <= 0 {
		budget = recallBudget
	}
	packed := recall.Pack(page, min(budget, recallMaxBudget))
	keys := make([]index.Key, 0, len(packed))
	ls := make(vault.Loaders) // a pass a vault: git asked once, not once a result
	defer ls.Close()
	for _, p := range packed {
		out.Memories = append(out.Memories, s.recalledOf(p, ls))
		keys = append(keys, p.Key)
	}
	s.recordRecall(keys...)
	return text("%s", recallText(q.Text, out)), out, nil
}

// rank returns the best want memories at least minConf confident, or all
// there are. It asks the engine for no more than it needs, which keeps the
// common call cheap, and asks again for more when the confidence filter
// left the page short.
func (s *Server) rank(ctx context.Context, db *index.DB, q recall.Query, want int, minConf float64) ([]recall.Result, error) {
	cfg := recall.DefaultConfig()
	cfg.Suspect = s.suspects(ctx, db) // what the last verify found: ranked lower, and said
	cfg.Semantic = s.cfg.Semantic
	e := recall.New(db, cfg)
	for q.Limit = want; ; q.Limit *= 2 {
		results, err := e.Recall(ctx, q)
		if err != nil {
			return nil, err
		}
		kept := results[:0:0]
		for _, r := range results {
			if r.Confidence >= minConf {
				kept = append(kept, r)
			}
		}
		if len(kept) >= want || len(results) < q.Limit || q.Limit >= 4*want+20 {
			return kept, nil
		}
	}
}

// recallQuery reads the query, files and types of a call.
func (s *Server) recallQuery(in recallInput) (recall.Query, error) {
	q := recall.Query{Text: pick(in.Query, in.Q, in.Text), Now: s.cfg.Now()}
	for _, f := range in.Files {
		if f = strings.TrimSpace(f); f != "" {
			q.Files = append(q.Files, s.repoPath(f))
		}
	}
	if strings.TrimSpace(q.Text) == "" && len(q.Files) == 0 {
		return q, errors.New("recall needs a query (query, q or text), files, or both")
	}
	types := in.Types
	if in.Type != "" {
		types = append(types, in.Type)
	}
	for _, t := range types {
		if !memory.Type(t).Valid() {
			return q, fmt.Errorf("type %q is not one of user, feedback, project, reference", t)
		}
		q.Types = append(q.Types, memory.Type(t))
	}
	return q, nil
}

// repoPath makes a path relative to the repository root, slash-separated,
// as anchors record them.
func (s *Server) repoPath(p string) string {
	if filepath.IsAbs(p) && s.cfg.Root != "" {
		if r, err := filepath.Rel(s.cfg.Root, p); err == nil && filepath.IsLocal(r) {
			p = r
		}
	}
	return filepath.ToSlash(filepath.Clean(p))
}

// recalledOf turns a packed result into what the model reads, reading its
// file with ls.
func (s *Server) recalledOf(p recall.Packed, ls vault.Loaders) recalled {
	r := recalled{
		Name: p.Name, Vault: p.Source, Type: string(p.Type), Description: s.memo.shown(p.Description),
		Score: round(p.Score), Confidence: round(p.Confidence), Why: whyText(p.Why),
	}
	for _, f := range p.Files {
		r.Files = append(r.Files, shown(f))
	}
	if p.Full {
		r.Body = strings.TrimSpace(s.memo.shown(p.Body))
	} else {
		r.BodyOmitted = true
	}
	if !p.Updated.IsZero() {
		r.Written = p.Updated.UTC().Format("2006-01-02")
	}
	if p.Status == memory.StatusSuperseded {
		r.Status, r.SupersededBy = string(p.Status), p.SupersededBy
	}
	if p.Source == "project" || p.Source == "user" {
		if m, err := ls.Load(s.vaultOf(p.Source), p.Name); err == nil {
			r.Review = reviewOf(m)
			if len(p.Files) > 0 && s.cfg.Root != "" { // a mounted vault's anchors are its own repository's
				r.Stale = staleness.Changed(s.cfg.Root, m, &s.hashes)
			}
		}
	}
	if len(r.Stale) == 0 && p.Why.Suspect != "" {
		r.Stale = strings.Split(p.Why.Suspect, "; ") // what the last verify found
	}
	return r
}

// round returns f, at least 0, to three decimals: what the agent reads of
// a score or a confidence (0.9954358979457612 says no more than 0.995).
func round(f float64) float64 { return float64(int64(f*1000+0.5)) / 1000 }

// whyText says in one line why a memory ranked where it did.
func whyText(w recall.Why) string {
	var parts []string
	if len(w.Terms) > 0 {
		parts = append(parts, "matches "+strings.Join(w.Terms, ", "))
	}
	for _, p := range w.Relevance {
		parts = append(parts, p.Name+" "+p.Detail)
	}
	for _, b := range w.Boosts {
		parts = append(parts, fmt.Sprintf("%s ×%.2f", b.Name, b.Value))
	}
	if w.Suspect != "" {
		parts = append(parts, "suspect: "+w.Suspect)
	}
	return strings.Join(parts, "; ")
}

// maxQueryEcho bounds the query an answer repeats, in bytes.
const maxQueryEcho = 200

// recallText renders an answer for clients that show text.
func recallText(query string, out recallOutput) string {
	var b strings.Builder
	if len(out.Memories) == 0 {
		fmt.Fprintf(&b, "No memory matches %q.\n", clip(shown(query), maxQueryEcho)) // redacted whole, then cut
		return b.String()
	}
	fmt.Fprintf(&b, "%s. %s\n", plural.N(len(out.Memories), "memory", "memories"), staleNote)
	for _, m := range out.Memories {
		fmt.Fprintf(&b, "\n## %s (%s %s, written %s, confidence %g)\n", m.Name, m.Vault, m.Type, m.Written, m.Confidence)
		if m.Review != "" {
			fmt.Fprintf(&b, "%s: %s\n", m.Review, unreviewedNote)
		}
		b.WriteString(m.Description + "\n")
		if m.Body != "" {
			b.WriteString(m.Body + "\n")
		}
		if m.Status != "" {
			fmt.Fprintf(&b, "superseded by %s\n", m.SupersededBy)
		}
		for _, st := range m.Stale {
			fmt.Fprintf(&b, "stale: %s\n", st)
		}
		fmt.Fprintf(&b, "why: %s\n", m.Why)
	}
	if out.NextCursor != "" {
		fmt.Fprintf(&b, "\nMore results: call recall again with cursor %q.\n", out.NextCursor)
	}
	return b.String()
}
