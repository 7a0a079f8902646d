package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/bench"
)

func newBenchHooksCmd(f *Factory) *cobra.Command {
	var ns []int
	var runs int
	var asJSON, vectors bool
	cmd := &cobra.Command{
		Use:   "hooks",
		Short: "Time the hooks from process start to exit",
		Long: `Time each hook as Claude Code runs it, a new process reading its JSON on
stdin, in a temporary git project whose vault holds N synthetic memories:
session-start, user-prompt-submit and session-end, and stop, which does
nothing: its time is the binary's start-up on this machine, the floor under
the others. Reports the median, the 90th percentile and the fastest run of
--runs runs at each size. With --vectors (the default) every memory first
gets a stand-in vector, words hashed into 512 values, as the worker would
give it the model's, so that user-prompt-submit recalls by meaning as it
would (MNEMO_SEMANTIC=off times it without); the model itself would take
minutes per thousand memories.`,
		Example: `  mnemo bench hooks
  mnemo bench hooks --n 1000,10000 --runs 50 --json`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			exe, err := os.Executable()
			if err != nil {
				return err
			}
			if real, err := filepath.EvalSymlinks(exe); err == nil {
				exe = real
			}
			ts, err := bench.RunHooks(cmd.Context(), bench.HookOptions{
				Exe: exe, Ns: ns, Runs: runs, Vectors: vectors,
				Progress: func(step string) { fmt.Fprintln(f.IO.ErrOut, step+"…") },
			})
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(f.IO.Out, ts)
			}
			tw := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "memories\thook\tmedian\tp90\tmin")
			for _, t := range ts {
				fmt.Fprintf(tw, "%d\t%s\t%.1f ms\t%.1f ms\t%.1f ms\n", t.N, t.Event, t.MedMS, t.P90MS, t.MinMS)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().IntSliceVar(&ns, "n", []int{1000, 10000}, "vault sizes")
	cmd.Flags().IntVar(&runs, "runs", 30, "runs per hook and size")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&vectors, "vectors", true, "give the memories stand-in vectors first")
	return cmd
}
