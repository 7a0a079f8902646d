package cli

import (
	"fmt"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

type listOptions struct {
	types  []string
	status string
	user   bool
	json   bool
}

func newListCmd(f *Factory) *cobra.Command {
	var opts listOptions
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the memories of a vault",
		Long: `List the memories of the project vault (or, with --user, the user vault):
name, type, last update and description. A file that cannot be read is
reported on stderr and skipped; run 'mnemo lint' for the details.`,
		Example: `  mnemo list
  mnemo list --type feedback --type user
  mnemo list --status superseded --json`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, t := range opts.types {
				if !memory.Type(t).Valid() {
					return usageErrorf("--type %q is not one of user, feedback, project, reference", t)
				}
			}
			switch opts.status {
			case "", "all", "active", "superseded":
			default:
				return usageErrorf("--status %q is not one of active, superseded, all", opts.status)
			}
			return runList(f, opts)
		},
	}
	cmd.Flags().StringArrayVarP(&opts.types, "type", "t", nil, "only memories of `TYPE` (repeatable)")
	cmd.Flags().StringVar(&opts.status, "status", "all", "only memories with `STATUS`: active, superseded or all")
	cmd.Flags().BoolVar(&opts.user, "user", false, "list the user vault instead of the project's")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

func runList(f *Factory, opts listOptions) error {
	v, err := f.Vault(opts.user)
	if err != nil {
		return err
	}
	entries, problems := v.List()
	warnProblems(f.IO.ErrOut, problems)
	var shown []vault.Entry
	for _, e := range entries {
		if keep(e.Memory, opts) {
			shown = append(shown, e)
		}
	}
	if opts.json {
		out := make([]memoryJSON, 0, len(shown))
		for _, e := range shown {
			out = append(out, shownJSON(toJSON(v, opts.user, e, false)))
		}
		return printJSON(f.IO.Out, out)
	}
	tw := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
	for _, e := range shown {
		m := e.Memory
		updated := "-"
		if !m.Updated.IsZero() {
			updated = m.Updated.Format(time.DateOnly)
		}
		typ := string(m.Type)
		if !m.Active() {
			typ += " (superseded)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", redact.String(e.Name), typ, updated, redact.String(m.Description))
	}
	return tw.Flush()
}

// shownJSON is a memory as list shows it, as recall does: the secrets a
// hand-written file may hold in its name, text, source, tags or anchored
// paths redacted (mnemo scan names the file). The slices are copied, not
// changed.
func shownJSON(j memoryJSON) memoryJSON {
	j.Name, j.Path = redact.String(j.Name), redact.String(j.Path) // a file named with a secret: lint names it
	j.Description, j.Why, j.Source = redact.String(j.Description), redact.String(j.Why), redact.String(j.Source)
	j.Tags = slices.Clone(j.Tags)
	for i := range j.Tags {
		j.Tags[i] = redact.String(j.Tags[i])
	}
	if j.Anchors != nil {
		a := *j.Anchors
		a.Commit = redact.String(a.Commit)
		a.Files = slices.Clone(a.Files)
		for i := range a.Files {
			a.Files[i].Path = redact.String(a.Files[i].Path)
		}
		j.Anchors = &a
	}
	return j
}

func keep(m *memory.Memory, opts listOptions) bool {
	if len(opts.types) > 0 {
		found := false
		for _, t := range opts.types {
			found = found || memory.Type(t) == m.Type
		}
		if !found {
			return false
		}
	}
	switch opts.status {
	case "active":
		return m.Active()
	case "superseded":
		return !m.Active()
	}
	return true
}
