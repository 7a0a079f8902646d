package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/recall"
	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/staleness"
)

type recallOptions struct {
	query   string
	files   []string
	types   []string
	limit   int
	budget  int
	user    bool
	json    bool
	explain bool
	words   bool // --no-semantic: rank by words alone
}

func newRecallCmd(f *Factory) *cobra.Command {
	var opts recallOptions
	cmd := &cobra.Command{
		Use:   "recall [QUERY...]",
		Short: "Find the memories that matter for a query",
		Long: `Rank the memories of the project vault and the user vault together for a
query: words, files (--files) or both. The search index is brought up to
date first, so edits made a moment ago count. With --budget, whole
memories are printed in order until the budget (in estimated tokens) is
spent, then description lines only. --explain shows how each score was made:
its lexical parts (words, substrings, files, links), its part from meaning
(the cosine similarity of the sentence vectors of query and memory), and
the boosts that multiply their sum. --no-semantic (or MNEMO_SEMANTIC=off)
ranks by words alone.`,
		Example: `  mnemo recall why does UserService not import billing
  mnemo recall --files internal/auth/service.go
  mnemo recall deploy checklist --type project --budget 800 --explain`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.query = strings.Join(args, " ")
			if strings.TrimSpace(opts.query) == "" && len(opts.files) == 0 {
				return usageErrorf("recall needs a query, --files, or both")
			}
			for _, t := range opts.types {
				if !memory.Type(t).Valid() {
					return usageErrorf("--type %q is not one of user, feedback, project, reference", t)
				}
			}
			if opts.limit < 0 || opts.budget < 0 {
				return usageErrorf("--limit and --budget cannot be negative")
			}
			return runRecall(cmd.Context(), f, opts)
		},
	}
	cmd.Flags().StringArrayVar(&opts.files, "files", nil, "files the query is about, `PATH` (repeatable)")
	cmd.Flags().StringArrayVarP(&opts.types, "type", "t", nil, "only memories of `TYPE` (repeatable)")
	cmd.Flags().IntVarP(&opts.limit, "limit", "n", recall.DefaultLimit, "at most `N` memories")
	cmd.Flags().IntVar(&opts.budget, "budget", 0, "fit the output in `TOKENS` (0: no limit)")
	cmd.Flags().BoolVar(&opts.user, "user", false, "search the user vault only")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	cmd.Flags().BoolVar(&opts.explain, "explain", false, "show why each memory ranked where it did")
	cmd.Flags().BoolVar(&opts.words, "no-semantic", false, "rank by words alone, without meaning")
	return cmd
}

func runRecall(ctx context.Context, f *Factory, opts recallOptions) error {
	db, root, err := openSyncedIndex(ctx, f, opts.user)
	if err != nil {
		return err
	}
	defer db.Close()
	q := recall.Query{Text: opts.query, Limit: opts.limit, Budget: opts.budget, Now: f.Now()}
	for _, t := range opts.types {
		q.Types = append(q.Types, memory.Type(t))
	}
	for _, p := range opts.files {
		q.Files = append(q.Files, repoPath(root, p))
	}
	cfg := recall.DefaultConfig()
	if verdicts, err := db.Suspects(ctx); err == nil {
		cfg.Suspect = staleness.SuspectFunc(verdicts) // what the last mnemo verify found
	}
	if m := f.Semantic(); m != nil && !opts.words {
		cfg.Semantic = m
	}
	results, err := recall.New(db, cfg).Recall(ctx, q)
	if err != nil {
		return err
	}
	packed := recall.Pack(results, q.Budget)
	for i := range packed { // a hand-written file may hold a secret: shown, never (mnemo scan names the file)
		packed[i].Description, packed[i].Body = redact.String(packed[i].Description), redact.String(packed[i].Body)
	}
	keys := make([]index.Key, len(packed))
	for i, p := range packed {
		keys[i] = p.Key
	}
	if err := db.RecordRecall(ctx, q.Now, keys...); err != nil {
		fmt.Fprintf(f.IO.ErrOut, "warning: %v\n", err)
	}
	marks := reviews(f, packed)
	if opts.json {
		return printJSON(f.IO.Out, recallJSON(packed, marks, opts.explain))
	}
	printRecall(f.IO.Out, packed, marks, opts.explain)
	return nil
}

// openSyncedIndex opens the index of the project vault (which also holds
// the user vault) or, with user, of the user vault, and syncs it. It
// returns the project root that query paths are relative to.
func openSyncedIndex(ctx context.Context, f *Factory, user bool) (*index.DB, string, error) {
	return openIndex(ctx, f, user, (*index.DB).Sync)
}

// openIndex is [openSyncedIndex] with the index filled by fill: Sync, or
// Rebuild for 'mnemo reindex'.
func openIndex(ctx context.Context, f *Factory, user bool, fill func(*index.DB, context.Context, ...index.Source) (index.SyncStats, error)) (*index.DB, string, error) {
	sources := []index.Source{{Name: "user", Dir: f.Env.UserVaultDir()}}
	root := ""
	if !user {
		v, err := f.Vault(false)
		if err != nil {
			return nil, "", err
		}
		p, err := f.Project()
		if err != nil {
			return nil, "", err
		}
		root = p.Root
		sources = append([]index.Source{{Name: "project", Dir: v.Dir}}, sources...)
		sources = append(sources, mountSources(p)...)
	}
	state, err := f.StateDir(user)
	if err != nil {
		return nil, "", err
	}
	db, err := index.Open(ctx, filepath.Join(state, index.FileName), newWarnLogger(f.IO.ErrOut))
	if err != nil {
		return nil, "", err
	}
	st, err := fill(db, ctx, sources...)
	if err != nil {
		db.Close()
		return nil, "", err
	}
	warnProblems(f.IO.ErrOut, st.Problems)
	if !st.Changed() {
		return db, root, nil
	}
	if err := embedFew(ctx, f, db); err != nil {
		fmt.Fprintf(f.IO.ErrOut, "warning: %v\n", err) // recall by words still works
	}
	return db, root, nil
}

// repoPath makes a path given on the command line relative to the
// repository root, slash-separated, as anchors record them.
func repoPath(root, p string) string {
	if root == "" {
		return filepath.ToSlash(filepath.Clean(p))
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.ToSlash(filepath.Clean(p))
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(filepath.Clean(p))
	}
	return filepath.ToSlash(rel)
}

// printRecall writes packed results for a person: a heading line per
// memory, its description, and its body when it fit the budget. marks
// holds why a result waits for review ([reviews]).
func printRecall(w io.Writer, packed []recall.Packed, marks map[index.Key]string, explain bool) {
	if len(packed) == 0 {
		fmt.Fprintln(w, "no memory matches")
		return
	}
	for i, p := range packed {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s  %s  %.3f%s\n", p.Name, heading(p.Result), p.Score, flags(p.Result, marks[p.Key]))
		fmt.Fprintln(w, "  "+p.Description)
		if p.Full {
			for line := range strings.Lines(strings.TrimSpace(p.Body)) {
				fmt.Fprintln(w, "    "+strings.TrimRight(line, "\n"))
			}
		}
		if explain {
			fmt.Fprintln(w, "  why: "+explainLine(p.Result))
		}
	}
}

func heading(r recall.Result) string {
	switch r.Source {
	case "project":
	case "user":
		return string(r.Type) + " (user vault)"
	default:
		return string(r.Type) + " (" + r.Source + ", read-only)"
	}
	return string(r.Type)
}

func flags(r recall.Result, review string) string {
	var out []string
	if review != "" {
		out = append(out, review)
	}
	if r.Why.Suspect != "" {
		out = append(out, "suspect: "+r.Why.Suspect)
	}
	if r.Status == memory.StatusSuperseded {
		s := "superseded"
		if r.SupersededBy != "" {
			s += " by " + r.SupersededBy
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return ""
	}
	return "  [" + strings.Join(out, "; ") + "]"
}

// explainLine writes a score as its sum of relevance parts times its boosts.
func explainLine(r recall.Result) string {
	var rel []string
	for _, p := range r.Why.Relevance {
		rel = append(rel, fmt.Sprintf("%s %.3f (%s)", p.Name, p.Value, p.Detail))
	}
	s := "(" + strings.Join(rel, " + ") + ")"
	for _, p := range r.Why.Boosts {
		s += fmt.Sprintf(" × %s %.2f (%s)", p.Name, p.Value, p.Detail)
	}
	if len(r.Why.Terms) > 0 {
		s += "; matched: " + strings.Join(r.Why.Terms, ", ")
	}
	return s
}

// recallResultJSON is how recall prints a result with --json.
type recallResultJSON struct {
	Name        string        `json:"name"`
	Vault       string        `json:"vault"`
	Type        memory.Type   `json:"type"`
	Status      memory.Status `json:"status"`
	Description string        `json:"description"`
	Score       float64       `json:"score"`
	Path        string        `json:"path"`
	Body        string        `json:"body,omitempty"` // only when it fit the budget
	Full        bool          `json:"full"`
	Tokens      int           `json:"tokens"`
	Suspect     string        `json:"suspect,omitempty"`
	Review      string        `json:"review,omitempty"` // why no one reviewed it; see [reviews]
	Why         *recall.Why   `json:"why,omitempty"`
}

func recallJSON(packed []recall.Packed, marks map[index.Key]string, explain bool) []recallResultJSON {
	out := make([]recallResultJSON, 0, len(packed))
	for _, p := range packed {
		r := recallResultJSON{
			Name: p.Name, Vault: p.Source, Type: p.Type, Status: p.Status, Description: p.Description,
			Score: math.Round(p.Score*1e4) / 1e4, Path: p.Path, Full: p.Full, Tokens: p.Tokens, Suspect: p.Why.Suspect,
			Review: marks[p.Key],
		}
		if p.Full {
			r.Body = p.Body
		}
		if explain {
			why := p.Why
			r.Why = &why
		}
		out = append(out, r)
	}
	return out
}

// warnHandler prints slog records as "warning: message (key: value, ...)",
// for packages that report a recoverable problem through a logger (the
// index rebuilding a damaged file).
type warnHandler struct {
	w     io.Writer
	attrs []slog.Attr
}

func newWarnLogger(w io.Writer) *slog.Logger { return slog.New(&warnHandler{w: w}) }

func (h *warnHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }

func (h *warnHandler) Handle(_ context.Context, r slog.Record) error {
	var parts []string
	add := func(a slog.Attr) bool {
		parts = append(parts, a.Key+": "+a.Value.String())
		return true
	}
	for _, a := range h.attrs {
		add(a)
	}
	r.Attrs(add)
	msg := "warning: " + r.Message
	if len(parts) > 0 {
		msg += " (" + strings.Join(parts, ", ") + ")"
	}
	_, err := fmt.Fprintln(h.w, msg)
	return err
}

func (h *warnHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &warnHandler{w: h.w, attrs: append(slices.Clone(h.attrs), attrs...)}
}

func (h *warnHandler) WithGroup(string) slog.Handler { return h }
