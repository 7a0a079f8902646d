package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print mnemo's version",
		Long:    "Print mnemo's version, the commit it was built from and the Go version.",
		Example: "  mnemo version",
		Args:    exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			version, commit, goVersion := "(devel)", "", ""
			if bi, ok := debug.ReadBuildInfo(); ok {
				goVersion = bi.GoVersion
				if bi.Main.Version != "" {
					version = bi.Main.Version
				}
				for _, s := range bi.Settings {
					if s.Key == "vcs.revision" && len(s.Value) >= 12 {
						commit = " " + s.Value[:12]
					}
				}
			}
			fmt.Fprintf(cmd.OutOrStdout(), "mnemo %s%s %s\n", version, commit, goVersion)
			return nil
		},
	}
}
