package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/vault"
)

// Run runs mnemo with args and returns the exit code: 0 success, 1 failure,
// 2 usage error.
func Run(ctx context.Context, args []string, streams *IOStreams) int {
	return run(ctx, args, NewFactory(streams))
}

// run runs one command line with a given world.
func run(ctx context.Context, args []string, f *Factory) int {
	streams := f.IO
	cmd := newRootCmd(f)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	if errors.Is(err, errSilent) {
		return 1
	}
	if vault.Saved(err) { // the write succeeded; only MEMORY.md is behind
		fmt.Fprintf(streams.ErrOut, "mnemo: warning: %v\n", err)
		return 0
	}
	fmt.Fprintf(streams.ErrOut, "mnemo: %v\n", err)
	var hint *hintError
	if errors.As(err, &hint) {
		fmt.Fprintln(streams.ErrOut, hint.hint)
	}
	var usage *UsageError
	if errors.As(err, &usage) {
		fmt.Fprintf(streams.ErrOut, "Run '%s --help' for usage.\n", commandPath(cmd, args))
		return 2
	}
	return 1
}

// commandPath names the command that args select, for the usage hint.
func commandPath(root *cobra.Command, args []string) string {
	if c, _, err := root.Find(args); err == nil {
		return c.CommandPath()
	}
	return root.Name()
}

func newRootCmd(f *Factory) *cobra.Command {
	root := &cobra.Command{
		Use:   "mnemo",
		Short: "A memory layer for AI coding agents",
		Long: `mnemo gives AI coding agents a memory that lasts between sessions without a
context tax. Each memory is one fact in one markdown file with a small YAML
header, kept in a vault (.memory/ at the root of the git repository, or
~/.mnemo/user for facts about you across projects), listed in a generated
MEMORY.md index.`,
		SilenceErrors: true,
		SilenceUsage:  true,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErrorf("unknown command %q", args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
		// A command an agent's shell tool ran acts on nothing the
		// repository put in its environment (the hooks and the MCP server
		// see to it themselves, knowing more of their agent).
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Name() != "hook" && cmd.Name() != "mcp" {
				f.offline = f.distrustAgentShell(cmd.Context())
			}
			return nil
		},
	}
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)
	root.SetIn(f.IO.In)
	root.PersistentFlags().StringVarP(&f.Dir, "project", "C", "", "find the project from `DIR` instead of the working folder")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &UsageError{Err: err} })
	root.AddCommand(
		newInitCmd(f),
		newAddCmd(f),
		newListCmd(f),
		newShowCmd(f),
		newEditCmd(f),
		newRmCmd(f),
		newLintCmd(f),
		newReindexCmd(f),
		newRecallCmd(f),
		newBenchCmd(f),
		newVersionCmd(),
		newHookCmd(f),
		newUninstallCmd(f),
		newQueueCmd(f),
		newDoctorCmd(f),
		newInboxCmd(f),
		newApproveCmd(f),
		newRejectCmd(f),
		newVerifyCmd(f),
		newGCCmd(f),
		newStatsCmd(f),
		newWorkerCmd(f),
		newIngestCmd(f),
		newDigestCmd(f),
		newDemoCmd(f),
		newMCPCmd(f),
		newScanCmd(f),
		newUICmd(f),
		newMvCmd(f),
		newMergeIndexCmd(f),
		newVaultCmd(f),
	)
	return root
}

// exactArgs, minArgs: cobra's argument checks, failing as usage errors.
func exactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usageErrorf("%s takes %d argument(s), got %d", cmd.Name(), n, len(args))
		}
		return nil
	}
}

func minArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < n {
			return usageErrorf("%s needs at least %d argument(s)", cmd.Name(), n)
		}
		return nil
	}
}
