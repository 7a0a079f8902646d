package cli

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/plural"
	"github.com/mnemo-dev/mnemo/internal/queue"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

func newQueueCmd(f *Factory) *cobra.Command {
	var asJSON bool
	var olderThan time.Duration
	cmd := &cobra.Command{
		Use:   "queue [list | retry ID | drop ID | prune]",
		Short: "Show and manage the capture queue",
		Long: `Show and manage the queue of captured sessions waiting for the worker.

  list       every job, newest first: state, attempts, session, last error
             or why a done job was skipped (the default)
  retry ID   make a failed or dead job pending again
  drop ID    delete a job that is not being processed
  prune      delete done and dead jobs older than --older-than

A job is pending, leased (a worker holds it), done, failed (retried later
with backoff) or dead (after too many attempts; retry it by hand). Once a
day the worker deletes the done jobs older than a week, as prune does;
dead jobs wait for you.`,
		Example: `  mnemo queue
  mnemo queue list --json
  mnemo queue retry 12
  mnemo queue prune --older-than 168h`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return nil
			}
			switch args[0] {
			case "list", "prune":
				if len(args) == 1 {
					return nil
				}
			case "retry", "drop":
				if len(args) == 2 {
					if _, err := strconv.ParseInt(args[1], 10, 64); err == nil {
						return nil
					}
				}
				return usageErrorf("queue %s takes one job ID (a number)", args[0])
			}
			return usageErrorf("queue takes list, retry ID, drop ID or prune")
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			state, err := f.StateDir(false)
			if err != nil {
				return err
			}
			q, err := queue.Open(cmd.Context(), state, f.queueLog())
			if err != nil {
				return err
			}
			defer q.Close()
			if len(args) == 0 {
				args = []string{"list"}
			}
			return runQueue(cmd.Context(), f, q, args, asJSON, olderThan)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().DurationVar(&olderThan, "older-than", queue.Retention, "with prune: the age past which finished jobs go")
	return cmd
}

// queueLog is where opening the queue says that it set a damaged queue.db
// aside, and which sessions to ingest again: the person running the
// command (stderr) and the state log.
func (f *Factory) queueLog() *slog.Logger {
	return slog.New(slog.NewMultiHandler(newWarnLogger(f.IO.ErrOut).Handler(), f.Log(false).Handler()))
}

func runQueue(ctx context.Context, f *Factory, q *queue.Queue, args []string, asJSON bool, olderThan time.Duration) error {
	switch args[0] {
	case "retry", "drop":
		id, _ := strconv.ParseInt(args[1], 10, 64)
		op := q.Retry
		if args[0] == "drop" {
			op = q.Drop
		}
		if err := op(ctx, id); err != nil {
			return err
		}
		fmt.Fprintf(f.IO.ErrOut, "job %d: %s done\n", id, args[0])
		return nil
	case "prune":
		n, err := q.Prune(ctx, f.Now().Add(-olderThan))
		if err != nil {
			return err
		}
		if asJSON {
			return printJSON(f.IO.Out, map[string]int{"pruned": n})
		}
		fmt.Fprintf(f.IO.ErrOut, "pruned %s\n", plural.N(n, "job", "jobs"))
		return nil
	}
	jobs, err := q.List(ctx)
	if err != nil {
		return err
	}
	if asJSON {
		if jobs == nil {
			jobs = []queue.Job{}
		}
		return printJSON(f.IO.Out, jobs)
	}
	tw := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
	for _, j := range jobs {
		note := j.LastError
		if j.Skipped != "" {
			note = "skipped: " + j.Skipped
		}
		// The session and the error (a transcript's path) come from a hook's
		// input: anyone's text, printed to a terminal.
		fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%s\t%s\t%s\n", j.ID, j.State, j.Attempts, j.Created.Format(time.DateTime),
			j.Event, transcript.Printable(j.Session), transcript.Printable(note))
	}
	return tw.Flush()
}
