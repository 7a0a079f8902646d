package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/agent"
	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

type initOptions struct {
	private bool
	agent   string
	scope   string
	noAgent bool
	json    bool
	trust   bool // --trust-hooks: write Codex's trust of the project and mnemo's hooks
}

func newInitCmd(f *Factory) *cobra.Command {
	var opts initOptions
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Create the memory vault and wire mnemo into your agent",
		Long: `Create the project's memory vault and wire mnemo into a coding agent.

The vault is .memory/ with its MEMORY.md index at the root of the git
repository (or the working folder outside git), meant to be committed so the
team shares what the agent learns. With --private it is Claude Code's own
machine-local auto-memory folder, ~/.claude/projects/<project>/memory,
never committed. The user vault, ~/.mnemo/user, is created too.

For Claude Code (the default agent) init merges mnemo's hooks into
.claude/settings.json (--scope local: .claude/settings.local.json; --scope
user: ~/.claude/settings.json), registers the MCP server 'mnemo' (project
scope: .mcp.json; local and user: ~/.claude.json), and points Claude Code's
autoMemoryDirectory at the vault in .claude/settings.local.json, so the
memories Claude writes natively and mnemo's share one folder. For codex,
gemini and cursor it registers the MCP server and hooks in their files.

Codex runs a project's hooks and MCP servers only once the project is
trusted and each hook's hash is trusted in its config.toml ($CODEX_HOME,
or ~/.codex, as for everything of Codex's mnemo reads); until then
it ignores them without a word. Start codex in the project once and choose
to trust it (or run 'codex exec --trust'), and approve the hooks, or pass
--trust-hooks: init then writes the project's trust and the hash of each of
mnemo's hooks, as they are now, into that config.toml ('mnemo doctor' says
when they go stale).

Files that are committed (.claude/settings.json, .mcp.json, the project
files of the other agents) run mnemo from PATH, so they hold nothing of one
machine; local and user scope name this binary. .claude/settings.local.json
holds machine paths, so init makes git ignore it through .git/info/exclude
unless the repository already does. MEMORY.md is generated, so init
registers a merge driver for it: the attribute in .gitattributes
(committed) and the driver in .git/config (each clone's own).

Every other key and hook is left as it was, the previous text of each
changed file is kept in the state folder's backups/, never in the working
tree, and running init again changes nothing. 'mnemo uninstall' removes
exactly what init added.`,
		Example: `  mnemo init
  mnemo init --private
  mnemo init --scope local
  mnemo init --agent codex
  mnemo init --agent codex --trust-hooks`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !agent.Valid(opts.agent) {
				return usageErrorf("--agent %q is not one of %v", opts.agent, agent.Names)
			}
			switch opts.scope {
			case "project", "local", "user":
			default:
				return usageErrorf("--scope %q is not one of project, local, user", opts.scope)
			}
			if opts.trust && opts.agent != "codex" {
				return usageErrorf("--trust-hooks is for --agent codex")
			}
			return runInit(cmd.Context(), f, opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.private, "private", false, "use Claude Code's machine-local memory folder instead of .memory/")
	fl.StringVar(&opts.agent, "agent", "claude-code", "the agent to wire: claude-code, codex, gemini, cursor")
	fl.StringVar(&opts.scope, "scope", "project", "where the agent's config goes: project, local or user")
	fl.BoolVar(&opts.noAgent, "no-agent", false, "create the vaults only; change no agent configuration")
	fl.BoolVar(&opts.json, "json", false, "print what changed as JSON")
	fl.BoolVar(&opts.trust, "trust-hooks", false, "codex: trust the project and mnemo's hooks in Codex's config.toml")
	return cmd
}

type initResult struct {
	Vault     string         `json:"vault"`
	UserVault string         `json:"user_vault"`
	Created   bool           `json:"created"`
	Changes   []agent.Change `json:"changes"`
}

func runInit(ctx context.Context, f *Factory, opts initOptions) error {
	p, err := f.Project()
	if err != nil {
		return err
	}
	dir := p.SharedVaultDir()
	if opts.private {
		dir = p.PrivateVaultDir()
	} else if _, err := p.Vault(); err != nil {
		return vaultRefused(err) // init would write through the symlink
	}
	if !p.InGit() {
		fmt.Fprintf(f.IO.ErrOut, "note: %s is not in a git repository; the vault is made there\n", p.Root)
	}
	res := initResult{Vault: dir, UserVault: f.Env.UserVaultDir(), Changes: []agent.Change{}}
	for i, v := range []string{dir, res.UserVault} {
		created, err := vault.Create(v)
		if err != nil {
			return err
		}
		if i == 0 {
			res.Created = created
		}
		if !opts.json {
			state := "exists"
			if created {
				state = "created"
			}
			fmt.Fprintf(f.IO.Out, "%s %s: %s\n", []string{"project vault", "user vault"}[i], state, displayPath(f, v))
		}
	}
	if err := os.MkdirAll(p.StateDir(), 0o755); err != nil {
		return err
	}
	if !opts.private {
		did, err := p.RegisterMergeDriver(ctx, filepath.Join(dir, vault.IndexFile), filepath.Join(dir, consolidate.TeamRejections))
		if !opts.json {
			for _, d := range did {
				fmt.Fprintln(f.IO.Out, d)
			}
		}
		if err != nil { // the vault works without it: say so, and go on
			fmt.Fprintf(f.IO.ErrOut, "warning: no merge driver for MEMORY.md: %v\n", err)
		}
	}
	if !opts.noAgent {
		o, err := agentOptions(f, opts.scope, dir, !opts.private)
		if err != nil {
			return err
		}
		res.Changes, err = agent.Install(opts.agent, o)
		if !opts.json {
			printChanges(f, f.IO.Out, res.Changes)
		}
		if err != nil {
			return err
		}
		if err := ignoreLocalSettings(ctx, f, opts, o); err != nil {
			return err
		}
		if opts.agent == "codex" {
			c, err := codexTrust(f, opts, o)
			if c.Path != "" {
				res.Changes = append(res.Changes, c)
			}
			if err != nil {
				return err
			}
		}
		warnPath(f, o)
	}
	if opts.json {
		return printJSON(f.IO.Out, res)
	}
	return nil
}

// ignoreLocalSettings keeps Claude Code's settings.local.json, which holds
// this machine's paths, out of git.
func ignoreLocalSettings(ctx context.Context, f *Factory, opts initOptions, o agent.Options) error {
	if opts.agent != "claude-code" || opts.scope == "user" {
		return nil
	}
	p, err := f.Project()
	if err != nil {
		return err
	}
	added, err := p.Ignore(ctx, o.LocalSettings())
	if added && !opts.json {
		fmt.Fprintf(f.IO.Out, "ignored %s (in .git/info/exclude)\n", displayPath(f, o.LocalSettings()))
	}
	if p.Tracked(ctx, o.LocalSettings()) {
		fmt.Fprintf(f.IO.ErrOut, "warning: %s holds this machine's paths and is committed: run 'git rm --cached %[1]s' and commit\n",
			displayPath(f, o.LocalSettings()))
	}
	return err
}

// codexTrust writes Codex's trust with --trust-hooks, and otherwise says
// that Codex will not run mnemo until the project and its hooks are trusted.
func codexTrust(f *Factory, opts initOptions, o agent.Options) (agent.Change, error) {
	if !opts.trust {
		problems, err := agent.CodexTrustProblems(o)
		if err == nil && len(problems) > 0 {
			fmt.Fprintf(f.IO.ErrOut, "note: Codex runs the project's hooks and MCP server only once the project and each hook are trusted (%d not yet):\n"+
				"  start codex here once and choose to trust it (or run 'codex exec --trust'), and approve the hooks,\n"+
				"  or run 'mnemo init --agent codex --trust-hooks' to write that trust into %s\n", len(problems), displayPath(f, o.CodexConfig()))
		}
		return agent.Change{}, nil
	}
	c, err := agent.TrustCodex(o)
	if err == nil && !opts.json && c.Action != "unchanged" {
		printChanges(f, f.IO.Out, []agent.Change{c})
		fmt.Fprintf(f.IO.Out, "trusted the project and mnemo's hooks for Codex in %s (a changed hook is untrusted again: run this again)\n", displayPath(f, o.CodexConfig()))
	}
	return c, err
}

// warnPath says when the committed files' mnemo, the one on PATH, is
// missing or is not this binary.
func warnPath(f *Factory, o agent.Options) {
	if o.Scope == "user" {
		return
	}
	onPath, err := exec.LookPath(agent.PathProgram)
	switch {
	case err != nil:
		fmt.Fprintf(f.IO.ErrOut, "warning: mnemo is not on PATH, and the project's hooks run it from there: put %s on PATH\n", filepath.Dir(o.Binary))
	case realPath(onPath) != o.Binary:
		fmt.Fprintf(f.IO.ErrOut, "warning: the project's hooks will run %s (the mnemo on PATH), not %s\n", onPath, o.Binary)
	}
}

// agentOptions describes this installation to package agent.
func agentOptions(f *Factory, scope, vaultDir string, shared bool) (agent.Options, error) {
	p, err := f.Project()
	if err != nil {
		return agent.Options{}, err
	}
	exe, err := os.Executable()
	if err != nil {
		return agent.Options{}, fmt.Errorf("find the mnemo binary: %w", err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return agent.Options{
		Binary: exe, Root: p.Root, VaultDir: vaultDir, Shared: shared, Scope: scope,
		Home: f.Env.Home, ClaudeHome: f.Env.ClaudeHome(), CodexHome: f.Env.CodexHome(),
		BackupDir: filepath.Join(p.StateDir(), "backups"), FoldersFile: filepath.Join(p.StateDir(), "created-folders"), Now: f.Now,
	}, nil
}

func printChanges(f *Factory, w io.Writer, changes []agent.Change) {
	for _, c := range changes {
		if c.Action == "unchanged" {
			continue
		}
		line := fmt.Sprintf("%s %s", c.Action, displayPath(f, c.Path))
		if c.Backup != "" {
			line += " (previous text in " + displayPath(f, c.Backup) + ")"
		}
		fmt.Fprintln(w, line)
	}
}

// displayPath shortens a path under the working folder or home for messages.
func displayPath(f *Factory, path string) string {
	if wd, err := f.Getwd(); err == nil {
		if r, err := filepath.Rel(wd, path); err == nil && filepath.IsLocal(r) {
			return r
		}
	}
	if r, err := filepath.Rel(f.Env.Home, path); err == nil && filepath.IsLocal(r) && f.Env.Home != "" {
		return filepath.Join("~", r)
	}
	return path
}
