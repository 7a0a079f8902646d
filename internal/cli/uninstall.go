package cli

import (
	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/agent"
)

func newUninstallCmd(f *Factory) *cobra.Command {
	var agentName, scope string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "uninstall",
		Short: "Remove what 'mnemo init' added to an agent's configuration",
		Long: `Remove exactly what 'mnemo init' added to an agent's configuration: mnemo's
hooks, its MCP server entry and the autoMemoryDirectory it set; for Codex,
also the trust of each of mnemo's hooks that 'init --trust-hooks' wrote
into Codex's config.toml (the project's own trust stays: you may rely on it
for more than mnemo). Everything else stays as it is; a file init created
and that holds nothing else is removed, and so is a folder init created
(.claude/, .codex/…) once it is empty. The vaults and their memories are
not touched.`,
		Example: `  mnemo uninstall
  mnemo uninstall --agent codex
  mnemo uninstall --agent cursor
  mnemo uninstall --scope user`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !agent.Valid(agentName) {
				return usageErrorf("--agent %q is not one of %v", agentName, agent.Names)
			}
			p, err := f.Project()
			if err != nil {
				return err
			}
			dir := p.VaultDir()
			o, err := agentOptions(f, scope, dir, dir == p.SharedVaultDir())
			if err != nil {
				return err
			}
			changes, err := agent.Uninstall(agentName, o)
			if asJSON {
				if jerr := printJSON(f.IO.Out, changes); jerr != nil {
					return jerr
				}
			} else {
				printChanges(f, f.IO.Out, changes)
			}
			return err
		},
	}
	cmd.Flags().StringVar(&agentName, "agent", "claude-code", "the agent: claude-code, codex, gemini, cursor")
	cmd.Flags().StringVar(&scope, "scope", "project", "where init put the agent's config: project, local or user")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print what changed as JSON")
	return cmd
}
