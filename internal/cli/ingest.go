package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/project"
	"github.com/mnemo-dev/mnemo/internal/queue"
	"github.com/mnemo-dev/mnemo/internal/safefile"
	"github.com/mnemo-dev/mnemo/internal/transcript"
	"github.com/mnemo-dev/mnemo/internal/worker"
)

type ingestOptions struct {
	files     []string
	all       bool
	since     string
	json      bool
	extractor string
}

func newIngestCmd(f *Factory) *cobra.Command {
	var opts ingestOptions
	cmd := &cobra.Command{
		Use:   "ingest [TRANSCRIPT...]",
		Short: "Turn past sessions into memories now",
		Long: `Process Claude Code transcripts now, as the worker does after a session
ends: each file is queued and processed in this process, from where an
earlier run stopped (a file is never read twice), and the candidate facts
go to the vault or the inbox. Codex CLI rollout files
($CODEX_HOME/sessions/.../rollout-*.jsonl, ~/.codex by default) and Gemini
CLI sessions (~/.gemini/tmp/<project>/chats/session-*.jsonl) are read as
well.

With --all, every past session of this project is processed: Claude Code's
under ~/.claude/projects/<project>/, Codex CLI's that ran in the project,
and Gemini CLI's. A session's sub-agent transcripts (Claude Code's and
Gemini CLI's) are read with it. --since keeps the files changed on or
after a date.

A session with too little work to be worth a model call is skipped: its
job is done, and the reason is printed as "skipped: FILE: REASON".
Progress is drawn on a terminal; a summary ends the run.`,
		Example: `  mnemo ingest ~/.claude/projects/-home-me-shop/7d3c9a1e.jsonl
  mnemo ingest --all --since 2026-11-01
  mnemo ingest --all --extractor heuristic --json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.files = args
			if len(args) == 0 && !opts.all {
				return usageErrorf("name transcripts to ingest, or pass --all")
			}
			return runIngest(cmd.Context(), f, opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.all, "all", false, "every past session of this project (Claude Code, Codex CLI, Gemini CLI)")
	fl.StringVar(&opts.since, "since", "", "only files changed on or after `DATE` (2006-01-02)")
	fl.BoolVar(&opts.json, "json", false, "print the summary as JSON")
	fl.StringVar(&opts.extractor, "extractor", "", "auto, anthropic, claude-cli, openai or heuristic")
	return cmd
}

type ingestSummary struct {
	Files     int            `json:"files"`
	Jobs      int            `json:"jobs"`
	Failed    int            `json:"failed"`
	Skipped   int            `json:"skipped"` // done without extraction, on purpose
	Facts     map[string]int `json:"facts"`   // by action: added, drafted, duplicate, extended, proposed, contradiction, rejected
	TokensIn  int            `json:"tokens_in"`
	TokensOut int            `json:"tokens_out"`
	Extractor string         `json:"extractor"`
}

func runIngest(ctx context.Context, f *Factory, opts ingestOptions) error {
	files, err := ingestFiles(f, opts)
	if err != nil {
		return err
	}
	c, err := openCapture(ctx, f, opts.extractor)
	if err != nil {
		return err
	}
	defer c.close()
	sum := ingestSummary{Files: len(files), Facts: map[string]int{}, Extractor: c.extractor}
	var ids []int64
	for _, path := range files {
		// The extractor asked for travels with the job, so a worker that
		// is already running uses it too.
		id, err := c.q.Enqueue(ctx, queue.Job{Session: sessionKey(path), Transcript: path, Event: "ingest", Extractor: c.requested})
		if err != nil {
			return err
		}
		ids = append(ids, id)
	}
	pipe := c.w.Process
	done := 0
	c.w.Process = func(ctx context.Context, j queue.Job) (queue.Result, error) {
		done++
		if f.IO.ErrTTY {
			fmt.Fprintf(f.IO.ErrOut, "\r\033[K[%d/%d] %s", done, len(files), filepath.Base(j.Transcript))
		}
		return pipe(ctx, j)
	}
	c.pipe.OnOutcome = func(_ queue.Job, o consolidate.Outcome) { sum.Facts[string(o.Action)]++ }
	c.w.Idle = 0
	if err := c.w.Run(ctx); errors.Is(err, worker.ErrRunning) {
		fmt.Fprintln(f.IO.ErrOut, "mnemo: a worker is running for this project; it will process the queued files, with the extractor they were queued for")
		return nil
	} else if err != nil {
		return err
	}
	if f.IO.ErrTTY {
		fmt.Fprint(f.IO.ErrOut, "\r\033[K")
	}
	// Read on after an interrupt (the worker gave its job back): the
	// summary says which files were not processed.
	rctx := context.WithoutCancel(ctx)
	for i, id := range ids {
		j, err := c.q.Get(rctx, id)
		if err != nil {
			return fmt.Errorf("ingest: what became of %s: %w", files[i], err)
		}
		sum.Jobs++
		sum.TokensIn += j.TokensIn
		sum.TokensOut += j.TokensOut
		switch {
		case j.State == "pending" && ctx.Err() != nil:
			sum.Failed++
			fmt.Fprintf(f.IO.ErrOut, "not processed: %s: interrupted; run mnemo ingest again to process it\n", j.Transcript)
		case j.State != "done":
			sum.Failed++
			fmt.Fprintf(f.IO.ErrOut, "failed: %s: %s\n", j.Transcript, j.LastError)
		case j.Skipped != "":
			sum.Skipped++
			fmt.Fprintf(f.IO.ErrOut, "skipped: %s: %s\n", j.Transcript, j.Skipped)
		}
	}
	if opts.json {
		return printJSON(f.IO.Out, sum)
	}
	fmt.Fprintf(f.IO.Out, "%d files, %d failed, %d skipped (extractor %s, %d tokens in, %d out)\n",
		sum.Files, sum.Failed, sum.Skipped, sum.Extractor, sum.TokensIn, sum.TokensOut)
	fmt.Fprintf(f.IO.Out, "facts: %d added, %d drafted, %d duplicate, %d extended, %d proposed, %d contradiction, %d rejected before\n",
		sum.Facts["added"], sum.Facts["drafted"], sum.Facts["duplicate"], sum.Facts["extended"], sum.Facts["proposed"], sum.Facts["contradiction"], sum.Facts["rejected"])
	if sum.Facts["drafted"]+sum.Facts["proposed"]+sum.Facts["contradiction"] > 0 {
		fmt.Fprintln(f.IO.ErrOut, "review the drafts with 'mnemo inbox'")
	}
	return nil
}

// sessionKey names a transcript file for the queue's offsets: its session
// id, and for a sub-agent file the session and the agent. A Codex rollout
// file (rollout-<time>-<session id>.jsonl) and a Gemini CLI session are
// keyed by the session id their hooks send, so that ingesting a session and
// capturing it share one offset.
func sessionKey(path string) string {
	base := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".jsonl"), ".json")
	if dir := filepath.Dir(path); filepath.Base(dir) == "subagents" {
		return worker.PartSession(filepath.Base(filepath.Dir(dir)), path)
	}
	if id := base[max(len(base)-36, 0):]; strings.HasPrefix(base, "rollout-") && isUUID(id) {
		return id
	}
	if strings.HasSuffix(path, ".json") {
		if id := transcript.GeminiSessionID(path); id != "" {
			return id
		}
	}
	return base
}

// isUUID reports whether s is a UUID in its 36-character text form.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case !strings.ContainsRune("0123456789abcdefABCDEF", c):
			return false
		}
	}
	return true
}

// ingestFiles lists the transcripts to process.
func ingestFiles(f *Factory, opts ingestOptions) ([]string, error) {
	var since time.Time
	if opts.since != "" {
		t, err := time.Parse(time.DateOnly, opts.since)
		if err != nil {
			return nil, usageErrorf("--since %q is not a date like 2026-11-01", opts.since)
		}
		since = t
	}
	var files []string
	for _, p := range opts.files {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		if fi, err := os.Stat(abs); err != nil {
			return nil, fmt.Errorf("ingest: %w", err)
		} else if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("ingest: %s is not a file", p)
		}
		files = append(files, abs)
	}
	if opts.all {
		p, err := f.Project()
		if err != nil {
			return nil, err
		}
		found, err := projectTranscripts(f.Env, p)
		if err != nil {
			return nil, err
		}
		files = append(files, found...)
	}
	var out []string
	for _, p := range files {
		if fi, err := os.Stat(p); err == nil && !fi.ModTime().Before(since) {
			out = append(out, p)
		}
	}
	return out, nil
}

// projectTranscripts lists the project's sessions, oldest first: Claude
// Code's session files, Codex CLI's rollout files of sessions run in the
// project, and Gemini CLI's session files. A Claude Code session's
// sub-agent files are not listed: its job reads them with it.
func projectTranscripts(env project.Env, p *project.Project) ([]string, error) {
	claude := filepath.Join(env.ClaudeHome(), "projects", project.ClaudeSlug(p.Root))
	mains, err := claudeSessions(filepath.Dir(claude), p.Root)
	if err != nil {
		return nil, err
	}
	codexDir := filepath.Join(env.CodexHome(), "sessions")
	codex, err := transcript.CodexSessions(codexDir, p.Root)
	if err != nil {
		return nil, fmt.Errorf("ingest: %w", err)
	}
	gemini, err := transcript.GeminiSessions(env.GeminiHome(), p.Root)
	if err != nil {
		return nil, err
	}
	mains = slices.Concat(mains, codex, gemini)
	if len(mains) == 0 {
		return nil, fmt.Errorf("ingest: no sessions of this project in %s, %s or %s", claude, codexDir, env.GeminiHome())
	}
	sort.SliceStable(mains, func(i, j int) bool { return modTime(mains[i]).Before(modTime(mains[j])) })
	agents := map[string]bool{} // files of older versions' sub-agents, beside the sessions
	for _, m := range mains {
		subs, err := transcript.SubagentFiles(m)
		if err != nil {
			return nil, err
		}
		for _, s := range subs {
			agents[s] = true
		}
	}
	return slices.DeleteFunc(mains, func(m string) bool { return agents[m] }), nil
}

// claudeSessions returns Claude Code's session files, under projects (its
// ~/.claude/projects), of the sessions started in root or any folder below
// it. Claude Code names a session's folder for the folder it started in,
// so a subfolder's is the root's name followed by '-' and more; since '-'
// also stands for '-' and '.', such a folder counts only when its sessions
// say, in their cwd, that they ran inside root.
func claudeSessions(projects, root string) ([]string, error) {
	slug := project.ClaudeSlug(root)
	des, err := os.ReadDir(projects)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("ingest: %w", err)
	}
	var out []string
	for _, de := range des {
		name := de.Name()
		if !de.IsDir() || name != slug && !strings.HasPrefix(name, slug+"-") {
			continue
		}
		files, err := filepath.Glob(filepath.Join(projects, name, "*.jsonl"))
		if err != nil {
			return nil, err
		}
		for _, file := range files {
			if name == slug || insideRoot(root, sessionCWD(file)) {
				out = append(out, file)
			}
		}
	}
	return out, nil
}

// sessionCWD reads the folder a Claude Code session ran in from the first
// of its first lines that names one; "" when none does.
func sessionCWD(path string) string {
	f, _, err := safefile.Open(path, transcript.MaxFileSize) // a FIFO or a device is refused, never waited on
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for i := 0; i < 50 && sc.Scan(); i++ {
		var e struct {
			CWD string `json:"cwd"`
		}
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.CWD != "" {
			return e.CWD
		}
	}
	return ""
}

// insideRoot reports whether dir is root or a folder below it.
func insideRoot(root, dir string) bool {
	if dir == "" {
		return false
	}
	r, err := filepath.Rel(root, dir)
	return err == nil && filepath.IsLocal(r)
}

func modTime(p string) time.Time {
	fi, err := os.Stat(p)
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}
