package cli

import (
	"context"
	"log/slog"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/envtrust"
	"github.com/mnemo-dev/mnemo/internal/mcpserver"
	"github.com/mnemo-dev/mnemo/internal/recall"
)

func newMCPCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve mnemo's MCP server on stdio, for Claude Code and other agents",
		Long: `Serve the Model Context Protocol on stdin and stdout, for an agent that
starts it: Claude Code, Codex, Gemini CLI, Cursor. 'mnemo init' registers it
under the name mnemo, so Claude Code calls its tools mcp__mnemo__recall and
so on.

Tools: recall, remember, update, forget, get, list, verify, and memory (the
command set of Anthropic's memory tool over the vault, under /memories).
Resources: memory://index (MEMORY.md) and memory://<name>.

The project is the one around the working folder (--project, else
$CLAUDE_PROJECT_DIR, else the folder the agent starts it in). stdout carries
only protocol messages; logs go to stderr and the state log. forget never
destroys a memory: it moves the file to the state folder's forgotten/ with
the reason, or with superseded_by marks it superseded.`,
		Example: `  claude mcp add --scope project mnemo -- mnemo mcp
  npx @modelcontextprotocol/inspector --cli mnemo mcp --method tools/list`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMCP(cmd.Context(), f)
		},
	}
}

func runMCP(ctx context.Context, f *Factory) error {
	if f.Dir == "" {
		f.Dir = f.Env.Getenv("CLAUDE_PROJECT_DIR")
	}
	// First: nothing below may act on what the repository put in the
	// environment the agent gave this server (its .mcp.json entry's env,
	// the settings' env).
	ignored, err := f.distrustRepo(ctx, "", false, f.Dir)
	if err != nil {
		f.Log(false).Warn("repository settings: ask git which files it tracks", "err", err)
	}
	if len(ignored) > 0 {
		f.Log(false).Warn("repository settings ignored", "vars", envtrust.List(ignored))
	}
	project, err := f.Vault(false)
	if err != nil {
		return err
	}
	user, err := f.Vault(true)
	if err != nil {
		return err
	}
	p, err := f.Project()
	if err != nil {
		return err
	}
	debug.SetGCPercent(mcpserver.GCPercent)
	stderr := slog.NewTextHandler(f.IO.ErrOut, &slog.HandlerOptions{Level: slog.LevelInfo})
	var semantic recall.QueryEmbedder
	f.residentModel()
	if m := f.Semantic(); m != nil {
		semantic = m
	}
	srv := mcpserver.New(mcpserver.Config{
		Project:  project,
		User:     user,
		StateDir: p.StateDir(),
		Root:     p.Root,
		InGit:    p.InGit(),
		Head:     p.Head,
		Now:      f.Now,
		Log:      slog.New(slog.NewMultiHandler(stderr, f.Log(false).Handler())),
		Version:  buildVersion(),
		Session:  f.Env.Getenv("CLAUDE_CODE_SESSION_ID"),
		Mounts:   mountSources(p),
		Semantic: semantic,
		Compare:  f.compare(),
	})
	in, restore := mcpserver.Pollable(f.IO.In)
	defer restore()
	return srv.Run(ctx, mcpserver.Stdio(in, f.IO.Out))
}

// buildVersion is the module version mnemo was built as, for the handshake.
func buildVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}
