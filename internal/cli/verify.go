package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/staleness"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

type verifyOptions struct {
	names      []string
	json       bool
	fix, yes   bool
	user       bool
	grepBudget time.Duration
}

func newVerifyCmd(f *Factory) *cobra.Command {
	var opts verifyOptions
	cmd := &cobra.Command{
		Use:   "verify [NAME...]",
		Short: "Check memories against the code they describe",
		Long: `Check each memory (or the named ones) against the repository: the files it
is anchored to are hashed again (a cache keyed by path, size and mtime makes
an unchanged file cost a stat call), deleted and renamed files are found
through git's rename detection, and the paths and backticked identifiers in
its body are looked up (git grep -w, within a time budget).

Each memory is fresh, suspect (with the reasons) or unverifiable (it names
nothing that can be checked). The results are kept in the state folder:
suspect memories rank lower in recall and SessionStart lists them. Memory
files are not changed, unless --fix: it rewrites renamed paths and
re-anchors the memory to the files as they are now, after showing the
change and asking (--yes answers for you).`,
		Example: `  mnemo verify
  mnemo verify auth-moved-to-auth-package --json
  mnemo verify --fix`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.names = args
			for _, n := range args {
				if !memory.ValidName(n) {
					return usageErrorf("%q is not a memory name", n)
				}
			}
			return runVerify(cmd.Context(), f, opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.json, "json", false, "print one object per memory: name, state, reasons")
	fl.BoolVar(&opts.fix, "fix", false, "follow renames and re-anchor suspect memories, after confirmation")
	fl.BoolVar(&opts.yes, "yes", false, "with --fix, apply every change without asking")
	fl.BoolVar(&opts.user, "user", false, "verify the user vault")
	fl.DurationVar(&opts.grepBudget, "grep-budget", 2*time.Second, "time allowed for identifier lookups in all")
	return cmd
}

type verdictJSON struct {
	Name    string   `json:"name"`
	Vault   string   `json:"vault"`
	State   string   `json:"state"`
	Reasons []string `json:"reasons"`
	Fixed   bool     `json:"fixed,omitempty"`
}

func runVerify(ctx context.Context, f *Factory, opts verifyOptions) error {
	p, err := f.Project()
	if err != nil {
		return err
	}
	v, err := f.Vault(opts.user)
	if err != nil {
		return err
	}
	entries, problems := v.List()
	warnProblems(f.IO.ErrOut, problems)
	if len(opts.names) > 0 {
		entries = slices.DeleteFunc(entries, func(e vault.Entry) bool { return !slices.Contains(opts.names, e.Name) })
		if len(entries) < len(opts.names) {
			return fmt.Errorf("verify: no memory named %s", strings.Join(missingNames(opts.names, entries), ", "))
		}
	}
	db, err := index.Open(ctx, filepath.Join(p.StateDir(), index.FileName), nil)
	if err != nil {
		return err
	}
	defer db.Close()
	cache, err := db.HashCache(ctx)
	if err != nil {
		return err
	}
	vf := &staleness.Verifier{Root: p.Root, InGit: p.InGit(), Head: p.Head(ctx), Cache: cache, GrepBudget: opts.grepBudget,
		Vault: staleness.VaultPath(p.Root, p.VaultDir())}
	source := "project"
	if opts.user {
		source = "user"
	}
	old, err := db.Verdicts(ctx)
	if err != nil {
		return err
	}
	var out []verdictJSON
	var changed []index.Verdict
	in := bufio.NewReader(f.IO.In)
	for _, e := range entries {
		vj, res, err := verifyOne(ctx, f, v, vf, e, opts, in)
		if err != nil {
			return err
		}
		vj.Vault = source
		out = append(out, vj)
		key := index.Key{Source: source, Name: e.Name}
		if o, ok := old[key]; !ok || o.State != vj.State || strings.Join(o.Reasons, "\n") != strings.Join(res.Reasons, "\n") {
			changed = append(changed, index.Verdict{Key: key, State: vj.State, Reasons: res.Reasons})
		}
	}
	if err := cache.Save(ctx); err != nil {
		return err
	}
	if err := db.SetVerdicts(ctx, f.Now(), changed...); err != nil {
		return err
	}
	return printVerdicts(f, out, opts)
}

// verifyOne verifies one memory and, with --fix, offers to fix it when
// suspect.
func verifyOne(ctx context.Context, f *Factory, v *vault.Vault, vf *staleness.Verifier, e vault.Entry,
	opts verifyOptions, in *bufio.Reader) (verdictJSON, staleness.Result, error) {
	res := vf.Verify(ctx, e.Memory)
	vj := verdictJSON{Name: redact.String(e.Name), State: string(res.State), Reasons: res.Reasons} // a file named with a secret: lint names it
	if opts.fix && res.State == staleness.Suspect {
		fixed, err := fixOne(ctx, f, v, vf, e, res, opts.yes, in)
		if err != nil {
			return vj, res, err
		}
		if fixed {
			res = vf.Verify(ctx, mustLoad(v, e.Name, e.Memory))
			vj.State, vj.Reasons, vj.Fixed = string(res.State), res.Reasons, true
		}
	}
	if vj.Reasons == nil {
		vj.Reasons = []string{}
	}
	return vj, res, nil
}

// printVerdicts prints the verdicts: all as JSON, or the suspect ones (all
// of those named) and a count of each state.
func printVerdicts(f *Factory, out []verdictJSON, opts verifyOptions) error {
	if opts.json {
		if out == nil {
			out = []verdictJSON{}
		}
		return printJSON(f.IO.Out, out)
	}
	counts := map[string]int{}
	for _, o := range out {
		counts[o.State]++
		if o.State == string(staleness.Suspect) || o.State == string(staleness.Intact) || len(opts.names) > 0 {
			fmt.Fprintf(f.IO.Out, "%-12s %s", o.State, o.Name)
			if len(o.Reasons) > 0 {
				fmt.Fprintf(f.IO.Out, ": %s", strings.Join(o.Reasons, "; "))
			}
			fmt.Fprintln(f.IO.Out)
		}
	}
	intact := ""
	if n := counts[string(staleness.Intact)]; n > 0 {
		intact = fmt.Sprintf(", %d changed with every name in place", n)
	}
	fmt.Fprintf(f.IO.ErrOut, "verify: %d fresh%s, %d suspect, %d unverifiable\n", counts["fresh"], intact, counts["suspect"], counts["unverifiable"])
	return nil
}

func missingNames(names []string, entries []vault.Entry) []string {
	var out []string
	for _, n := range names {
		if !slices.ContainsFunc(entries, func(e vault.Entry) bool { return e.Name == n }) {
			out = append(out, n)
		}
	}
	return out
}

func mustLoad(v *vault.Vault, name string, fallback *memory.Memory) *memory.Memory {
	if m, err := v.Load(name); err == nil {
		return m
	}
	return fallback
}

// fixOne shows what --fix would change in one memory, asks, and writes it.
func fixOne(ctx context.Context, f *Factory, v *vault.Vault, vf *staleness.Verifier, e vault.Entry, res staleness.Result, yes bool, in *bufio.Reader) (bool, error) {
	fixed, changed := staleness.Fix(vf.Root, vf.Head, e.Memory, res)
	if !changed {
		return false, nil
	}
	fixed.Updated = f.Now().UTC()
	name := e.Name + ".md"
	fmt.Fprintf(f.IO.ErrOut, "%s", diff.Diff(name, e.Memory.Render(), name+" (fixed)", fixed.Render()))
	if !yes {
		fmt.Fprintf(f.IO.ErrOut, "apply this change to %s? [y/N] ", name)
		answer, _ := in.ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			return false, nil
		}
	}
	// The question was asked outside the lock: apply the change only to
	// the memory as it was shown, never over an edit made meanwhile.
	shown := e.Memory.Render()
	_, err := v.Update(ctx, e.Name, func(m *memory.Memory) error {
		if !bytes.Equal(m.Render(), shown) {
			return fmt.Errorf("%s changed while the fix waited for an answer: nothing written; run 'mnemo verify --fix %s' again", name, e.Name)
		}
		m.Body, m.Anchors, m.Updated = fixed.Body, fixed.Anchors, fixed.Updated
		return nil
	})
	return err == nil, err
}
