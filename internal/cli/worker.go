package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/extract"
	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/queue"
	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/transcript"
	"github.com/mnemo-dev/mnemo/internal/worker"
)

func newWorkerCmd(f *Factory) *cobra.Command {
	var once bool
	var idle time.Duration
	var extractor string
	cmd := &cobra.Command{
		Use:   "worker",
		Short: "Process the captured sessions waiting in the queue",
		Long: `Take the captured sessions from the queue and turn each into memories: read
the transcript from where the session's last job stopped, digest and redact
it, extract candidate facts, and consolidate them into the vault (facts
that clear the auto-approve confidence) or the inbox (the rest).

One worker runs per project; the capture hooks start it, detached, and it
exits after --idle ($MNEMO_WORKER_IDLE) without work, or on SIGTERM or
SIGINT, giving back the job in hand. A job's lease is renewed while it
runs: the job of a worker that was killed is taken again within seconds.
Each job is one line in the state log, with timing and tokens. The extractor is chosen by --extractor or
$MNEMO_EXTRACTOR: auto (the default: the Anthropic API when
ANTHROPIC_API_KEY is set, else the claude CLI on PATH, else an
OpenAI-compatible endpoint when OPENAI_BASE_URL or OPENAI_API_KEY is set,
else the offline heuristic), anthropic, claude-cli, openai or heuristic.`,
		Example: `  mnemo worker --once
  mnemo worker --idle 5m --extractor heuristic`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := openCapture(cmd.Context(), f, extractor)
			if err != nil {
				return err
			}
			defer c.close()
			if s := f.Env.Getenv("MNEMO_WORKER_IDLE"); s != "" && !cmd.Flags().Changed("idle") {
				d, err := time.ParseDuration(s)
				if err != nil {
					return usageErrorf("$MNEMO_WORKER_IDLE %q is not a duration (like 5s or 2m)", s)
				}
				idle = d
			}
			if once {
				idle = 0
			}
			// The hooks start the worker to build a large index they
			// cannot build within their deadline, and to embed new
			// memories: bring it up to date first. Synced, it also tells
			// which memories are gone, and no hook waits: the moment to
			// prune the history and embed. What the jobs write is
			// embedded at the end.
			if db, _, err := openSyncedIndex(cmd.Context(), f, false); err == nil {
				pruneHistory(cmd.Context(), f, db)
				embedMissing(cmd.Context(), f, db)
				db.Close()
			} else {
				f.Log(false).Warn("worker: sync the index", "err", err)
			}
			pruneRecordsDaily(cmd.Context(), f)
			c.w.Idle = idle
			// SIGTERM (a shutdown, a service manager) and SIGINT end the
			// worker as its idle time does: the job in hand is released
			// for the next worker, the lock let go.
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			err = c.w.Run(ctx)
			if errors.Is(err, worker.ErrRunning) {
				fmt.Fprintln(f.IO.ErrOut, "mnemo: a worker is already running for this project")
				return nil
			}
			if err == nil {
				embedIndex(cmd.Context(), f)
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&once, "once", false, "process what is queued now, then exit")
	cmd.Flags().DurationVar(&idle, "idle", 60*time.Second, "exit after this long without work")
	cmd.Flags().StringVar(&extractor, "extractor", "", "auto, anthropic, claude-cli, openai or heuristic (default $MNEMO_EXTRACTOR, else auto)")
	return cmd
}

// embedIndex brings the project's index up to date and embeds every
// memory without a vector (see embedMissing).
func embedIndex(ctx context.Context, f *Factory) {
	db, _, err := openSyncedIndex(ctx, f, false)
	if err != nil {
		f.Log(false).Warn("worker: sync the index", "err", err)
		return
	}
	defer db.Close()
	embedMissing(ctx, f, db)
}

// embedMissing embeds every memory of db without a vector, logging what
// fails: a batch at a time, each written in its own short transaction,
// so hooks and the MCP server reading the index never wait for it.
func embedMissing(ctx context.Context, f *Factory, db *index.DB) {
	m := f.Semantic()
	if m == nil {
		return
	}
	log := f.Log(false)
	start := time.Now()
	n, err := db.EmbedMissing(ctx, m, nil)
	if err != nil {
		log.Warn("worker: embed memories", "err", err)
	}
	if n > 0 {
		log.Info("worker: embedded memories", "n", n, "ms", time.Since(start).Milliseconds())
	}
}

// captureRun is a project's capture pipeline, open.
type captureRun struct {
	q         *queue.Queue
	w         *worker.Worker
	pipe      *worker.Pipeline
	extractor string // the name of the extractor built
	requested string // the extractor asked for (--extractor, else $MNEMO_EXTRACTOR); "" for the default
}

func (c *captureRun) close() { c.q.Close() }

// openCapture opens the queue and builds the worker of the project. When
// the repository set variables that steer mnemo (f.offline), every job is
// extracted by the offline extractor, whatever it was queued for.
func openCapture(ctx context.Context, f *Factory, extractorName string) (*captureRun, error) {
	p, err := f.Project()
	if err != nil {
		return nil, err
	}
	state := p.StateDir()
	log := f.Log(false)
	q, err := queue.Open(ctx, state, f.queueLog())
	if err != nil {
		return nil, err
	}
	if extractorName == "" {
		extractorName = f.Env.Getenv("MNEMO_EXTRACTOR")
	}
	if extractorName == "" {
		// Named, not left empty: a job queued for auto is extracted with
		// auto even by a worker started under another $MNEMO_EXTRACTOR.
		extractorName = extract.ProviderAuto
	}
	offline := f.offline
	if offline {
		extractorName = extract.ProviderHeuristic
		fmt.Fprintln(f.IO.ErrOut, "mnemo: extracting offline: the repository set variables that steer mnemo")
	}
	build := func(name string) (extract.Extractor, error) {
		if offline {
			name = extract.ProviderHeuristic
		}
		cfg := extractConfig(f)
		cfg.Provider = name
		cfg.Ledger, cfg.Logger = worker.Ledger(q), log
		return extract.New(cfg)
	}
	x, err := build(extractorName)
	if err != nil {
		q.Close()
		return nil, err
	}
	var mu sync.Mutex // guards built
	built := map[string]worker.Extractor{extractorName: worker.FromExtract(x)}
	red := redact.New(redact.Options{})
	pipe := &worker.Pipeline{
		Queue: q, Extractor: built[extractorName], Redact: red.String, Log: log, Now: f.Now,
		ExtractorFor: func(name string) (worker.Extractor, error) {
			mu.Lock()
			defer mu.Unlock()
			if wx, ok := built[name]; ok {
				return wx, nil
			}
			x, err := build(name)
			if err != nil {
				return nil, err
			}
			built[name] = worker.FromExtract(x)
			return built[name], nil
		},
		Consolidator: func(ctx context.Context, j queue.Job) (*consolidate.Consolidator, func(), error) {
			return openConsolidator(ctx, f, j.Cwd, log)
		},
	}
	w := &worker.Worker{StateDir: state, Queue: q, Process: pipe.Process, Log: log, Now: time.Now}
	return &captureRun{q: q, w: w, pipe: pipe, extractor: x.Name(), requested: extractorName}, nil
}

// extractConfig is the extractors' configuration: the defaults, the
// environment, and the project's related memories for every request.
func extractConfig(f *Factory) extract.Config {
	cfg := extract.DefaultConfig(f.Env.Getenv)
	cfg.Related = func(ctx context.Context, d *transcript.Digest) ([]extract.Related, error) {
		db, _, err := openSyncedIndex(ctx, f, false)
		if err != nil {
			return nil, err
		}
		defer db.Close()
		p, err := f.Project()
		if err != nil {
			return nil, err
		}
		in, err := consolidate.OpenInbox(p.StateDir())
		if err != nil {
			return nil, err
		}
		return worker.Related(ctx, db, in, d)
	}
	return cfg
}

// openConsolidator opens what facts are merged into: both vaults, the
// index, the inbox.
func openConsolidator(ctx context.Context, f *Factory, cwd string, log *slog.Logger) (*consolidate.Consolidator, func(), error) {
	p, err := f.Project()
	if err != nil {
		return nil, nil, err
	}
	pv, err := f.Vault(false)
	if err != nil {
		return nil, nil, err
	}
	uv, err := f.Vault(true)
	if err != nil {
		return nil, nil, err
	}
	db, err := index.Open(ctx, filepath.Join(p.StateDir(), index.FileName), log)
	if err != nil {
		return nil, nil, err
	}
	in, err := consolidate.OpenInbox(p.StateDir())
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	in.ShareRejections(pv.Dir)
	if cwd == "" {
		cwd = p.Root
	}
	c := &consolidate.Consolidator{
		Project: pv, User: uv, Inbox: in, Index: db, Root: p.Root, Cwd: cwd, Head: p.Head(ctx),
		Now: f.Now().UTC(), AutoApprove: consolidate.DefaultAutoApprove, Semantic: f.compare(),
	}
	return c, func() { db.Close() }, nil
}
