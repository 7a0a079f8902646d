package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/agent"
	"github.com/mnemo-dev/mnemo/internal/hook"
	"github.com/mnemo-dev/mnemo/internal/queue"
)

func newHookCmd(f *Factory) *cobra.Command {
	var agentName string
	cmd := &cobra.Command{
		Use:   "hook EVENT",
		Short: "Answer an agent's hook event (JSON on stdin)",
		Long: `Answer a hook event of Claude Code (or Codex, Gemini CLI, Cursor), reading
the event's JSON on stdin. 'mnemo init' registers these; you do not run them
by hand except to see what they do.

  session-start       prints the memories worth having at the start of a session
  user-prompt-submit  prints up to 3 memories relevant to the prompt, once per session
  pre-compact         queues the session's transcript for the background worker
  session-end         queues the session's transcript for the background worker
  stop                does nothing (anything printed would keep the agent working)

A hook always exits 0 and prints either its whole answer or nothing; errors
go to the state log (~/.mnemo/state/<project>/log). With MNEMO_CHILD set it
exits at once: that is a session mnemo itself started. A variable that a file
the repository tracks in git put in its environment (the env of a committed
.claude/settings.json) is ignored; when it chooses where sessions go, the
session is extracted offline (mnemo doctor names them).`,
		Example: `  echo '{"session_id":"s1","cwd":"'$PWD'","source":"startup"}' | mnemo hook session-start
  echo '{"session_id":"s1","cwd":"'$PWD'","prompt":"how do we deploy?"}' | mnemo hook user-prompt-submit`,
		// A hook exits 0 whatever it is given: a mistake here must not
		// block the agent. It says what is wrong on stderr, which agents
		// keep in their debug log.
		FParseErrWhitelist: cobra.FParseErrWhitelist{UnknownFlags: true},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 || !slices.Contains(hook.Events, args[0]) {
				fmt.Fprintf(f.IO.ErrOut, "mnemo: hook takes one event: %v\n", hook.Events)
				return nil
			}
			if !agent.Valid(agentName) {
				fmt.Fprintf(f.IO.ErrOut, "mnemo: hook: --agent %q is not one of %v; answering as claude-code\n", agentName, agent.Names)
				agentName = "claude-code"
			}
			// First: nothing below may act on what the repository put in
			// the environment the agent gave this hook.
			ignored, err := f.distrustRepo(cmd.Context(), agentName, false, f.Env.Getenv("CLAUDE_PROJECT_DIR"))
			if err != nil {
				f.Log(false).Warn("repository settings: ask git which files it tracks", "err", err)
			}
			r := &hook.Runner{
				Agent:   agentName,
				Env:     f.Env,
				Now:     f.Now,
				Getwd:   f.Getwd,
				Stdout:  f.IO.Out,
				Spawn:   spawnWorker,
				Ignored: ignored,
			}
			if m := f.lazyModel(); m != nil {
				r.Semantic = m.Short(hook.PromptTokens)
			}
			if f.Env.Getenv("MNEMO_WORKER") == "off" {
				r.Spawn = nil // queued sessions wait for 'mnemo worker' by hand
			}
			r.Run(cmd.Context(), args[0], f.IO.In)
			return nil
		},
	}
	cmd.Flags().StringVar(&agentName, "agent", "claude-code", "the agent whose hook this is: claude-code, codex, gemini, cursor")
	return cmd
}

// spawnWorker starts 'mnemo worker' for a project, detached.
func spawnWorker(root, stateDir string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return queue.SpawnWorker(exe, []string{"worker", "--project", root}, stateDir, os.Environ())
}
