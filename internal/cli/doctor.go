package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/agent"
	"github.com/mnemo-dev/mnemo/internal/extract"
	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/plural"
	"github.com/mnemo-dev/mnemo/internal/project"
	"github.com/mnemo-dev/mnemo/internal/queue"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// A check is one line of the doctor's report.
type check struct {
	Name   string `json:"name"`
	Status string `json:"status"` // ok, warn, fail
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

func newDoctorCmd(f *Factory) *cobra.Command {
	var asJSON, deep bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check the installation and say what to fix",
		Long: `Check that mnemo is installed and working for this project: the binary on
PATH and that it is the one the hooks and MCP server run, no machine path in
the files git shares, .claude/settings.local.json ignored by git,
autoMemoryDirectory pointing at the vault, the variables the repository's
tracked settings set (which mnemo's hooks ignore), the vaults
readable and valid, the state folder writable, the index usable, the capture
queue healthy and the extractor available. Each problem comes with what to
run to fix it. Doctor only looks: it creates and changes nothing. Exits 1
when a check fails.

With --deep it also reads everything: every memory file and draft parses,
each vault's MEMORY.md lists what its files hold, the index (brought up to
date first, as every command does) holds every memory as its file says,
and the queue is whole and consistent (no job leased by a worker that
died, no range of a transcript processed twice).`,
		Example: `  mnemo doctor
  mnemo doctor --deep --json`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			checks := runDoctor(cmd.Context(), f)
			if deep {
				checks = append(checks, deepChecks(cmd.Context(), f)...)
			}
			failed := 0
			for _, c := range checks {
				if c.Status == "fail" {
					failed++
				}
			}
			if asJSON {
				if err := printJSON(f.IO.Out, checks); err != nil {
					return err
				}
			} else {
				for _, c := range checks {
					fmt.Fprintf(f.IO.Out, "%-4s  %-10s  %s\n", c.Status, c.Name, c.Detail)
					if c.Fix != "" {
						fmt.Fprintf(f.IO.Out, "      %-10s  fix: %s\n", "", c.Fix)
					}
				}
			}
			if failed > 0 {
				return errSilent
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the checks as JSON")
	cmd.Flags().BoolVar(&deep, "deep", false, "also read every file, the index and the queue through")
	return cmd
}

func runDoctor(ctx context.Context, f *Factory) []check {
	var out []check
	add := func(name, status, detail, fix string) { out = append(out, check{name, status, detail, fix}) }

	p, err := f.Project()
	if err != nil {
		add("project", "fail", err.Error(), "")
		return out
	}
	dir := p.VaultDir()
	if o, err := agentOptions(f, "project", dir, dir == p.SharedVaultDir()); err == nil {
		out = append(out, wiringChecks(ctx, f, p, o)...)
	}
	out = append(out, repoEnvCheck(ctx, f, p))
	out = append(out, vaultCheck(f, "vault", false))
	out = append(out, vaultCheck(f, "user vault", true))
	out = append(out, reviewCheck(f))
	out = append(out, notesCheck(f))

	state := p.StateDir()
	if fi, err := os.Stat(state); err != nil || !fi.IsDir() {
		add("state", "warn", "no state folder yet at "+state+" (doctor only looks; it creates nothing)", "mnemo init")
		return append(out, extractorCheck(f))
	}
	add("state", "ok", state, "")
	out = append(out, draftsCheck(state))
	if db, err := index.Open(ctx, filepath.Join(state, index.FileName), nil); err != nil {
		add("index", "fail", err.Error(), "delete "+filepath.Join(state, index.FileName)+"; mnemo rebuilds it")
	} else {
		if err := db.Check(ctx); err != nil {
			add("index", "fail", err.Error(), "mnemo reindex (it rebuilds the index from the files; the next recall would too)")
		} else {
			n, _ := db.Count(ctx)
			add("index", "ok", plural.N(n, "memory", "memories")+" indexed", "")
		}
		if c, ok := vectorsCheck(ctx, f, db); ok {
			out = append(out, c)
		}
		db.Close()
	}
	out = append(out, queueCheck(ctx, state)...)
	out = append(out, extractorCheck(f))
	return out
}

// vectorsCheck says when the index's vectors are of another model than
// this build's (one that came before an upgrade): recall ranks by words
// alone until they are embedded again. It says nothing when they are of
// this model, or there are none, or recall by meaning is off.
func vectorsCheck(ctx context.Context, f *Factory, db *index.DB) (check, bool) {
	m := f.Semantic()
	if m == nil {
		return check{}, false
	}
	model, err := db.VectorModel(ctx)
	if err != nil {
		return check{Name: "vectors", Status: "warn", Detail: err.Error()}, true
	}
	if model == "" || model == m.ModelID() {
		return check{}, false
	}
	return check{Name: "vectors", Status: "warn",
		Detail: fmt.Sprintf("the memories' vectors are of model %s, not this build's %s: recall ranks by words alone until they are embedded again", model, m.ModelID()),
		Fix:    "mnemo reindex (or wait: the worker embeds them again at the end of the next session)"}, true
}

func hookPlaces(reg agent.Registration) string {
	if reg.Plugin {
		return "by the mnemo plugin"
	}
	seen := map[string]bool{}
	var files []string
	for _, fs := range reg.Hooks {
		for _, f := range fs {
			if !seen[f] {
				seen[f] = true
				files = append(files, f)
			}
		}
	}
	return "in " + strings.Join(files, ", ")
}

func vaultCheck(f *Factory, name string, user bool) check {
	v, err := f.Vault(user)
	var refused *project.VaultError
	if errors.As(err, &refused) {
		return check{Name: name, Status: "fail", Detail: refused.Error(), Fix: refused.Hint()}
	}
	if err != nil {
		return check{Name: name, Status: "fail", Detail: err.Error(), Fix: "mnemo init"}
	}
	errs, warns := 0, 0
	for _, fd := range v.Lint() {
		if fd.Severity == vault.SeverityError {
			errs++
		} else {
			warns++
		}
	}
	entries, problems := v.List()
	c := check{Name: name, Status: "ok", Detail: displayPath(f, v.Dir) + ": " + plural.N(len(entries), "memory", "memories")}
	var conflicts []string
	for _, p := range problems {
		if errors.Is(p, memory.ErrConflict) {
			conflicts = append(conflicts, strings.TrimPrefix(p.Error(), "vault: "))
		}
	}
	if len(conflicts) > 0 {
		c.Status, c.Fix = "fail", "resolve the conflict in each file, then mnemo reindex"
		c.Detail += "; not read, in conflict: " + strings.Join(conflicts, "; ")
		return c
	}
	if errs > 0 {
		c.Status, c.Fix = "warn", "mnemo lint"
		if user {
			c.Fix += " --user"
		}
		c.Detail += ", " + plural.N(errs, "error", "errors") + ", " + plural.N(warns, "warning", "warnings")
	}
	return c
}

func queueCheck(ctx context.Context, state string) []check {
	var out []check
	damages, err := queue.Damages(state)
	if err != nil {
		out = append(out, check{Name: "queue", Status: "warn", Detail: err.Error()})
	}
	for _, d := range damages {
		out = append(out, check{Name: "queue", Status: "warn",
			Detail: fmt.Sprintf("queue.db was damaged (%s) and set aside at %s as %s; a new queue was started",
				d.Problem, d.At.Local().Format(time.DateTime), d.Aside),
			Fix: d.Fix() + "; then delete " + d.Aside + "*"})
	}
	if err := queue.Check(ctx, state); err != nil {
		return append(out, check{Name: "queue", Status: "fail", Detail: "queue.db: " + err.Error(),
			Fix: "mnemo queue (sets it aside, starts a new queue and names the sessions to ingest again)"})
	}
	q, err := queue.Open(ctx, state, nil)
	if err != nil {
		return append(out, check{Name: "queue", Status: "fail", Detail: err.Error()})
	}
	defer q.Close()
	counts, err := q.Counts(ctx)
	if err != nil {
		return append(out, check{Name: "queue", Status: "fail", Detail: err.Error()})
	}
	done := strconv.Itoa(counts["done"]) + " done"
	if t, err := q.Totals(ctx, time.Time{}); err == nil && t.Skipped > 0 {
		why, _ := q.LastSkip(ctx)
		done += fmt.Sprintf(" (%d skipped: %s)", t.Skipped, why)
	}
	c := check{Name: "queue", Status: "ok", Detail: fmt.Sprintf("%d pending, %s, %d failed, %d dead",
		counts["pending"]+counts["leased"], done, counts["failed"], counts["dead"])}
	if counts["dead"] > 0 {
		c.Status, c.Fix = "warn", "mnemo queue, then mnemo queue retry ID"
	}
	if counts["pending"] > 0 && !queue.WorkerRunning(state) {
		c.Status, c.Fix = "warn", "mnemo worker"
		c.Detail += "; no worker is running"
	}
	return append(out, c)
}

// extractorCheck reports the extractor the worker would use, as auto (or
// $MNEMO_EXTRACTOR) chooses it.
func extractorCheck(f *Factory) check {
	cfg := extract.DefaultConfig(f.Env.Getenv)
	if p := f.Env.Getenv("MNEMO_EXTRACTOR"); p != "" {
		cfg.Provider = p
	}
	x, err := extract.New(cfg)
	if err != nil {
		return check{Name: "extractor", Status: "fail", Detail: err.Error(),
			Fix: "set MNEMO_EXTRACTOR to auto, anthropic, claude-cli, openai or heuristic, with what it needs"}
	}
	c := check{Name: "extractor", Status: "ok", Detail: x.Name()}
	if x.Name() == extract.ProviderHeuristic {
		c.Detail += " (offline; set ANTHROPIC_API_KEY, or put claude on PATH, for better extraction)"
	}
	return c
}
