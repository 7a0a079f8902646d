package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/extract"
	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

type digestOptions struct {
	file    string
	request bool
	json    bool
}

func newDigestCmd(f *Factory) *cobra.Command {
	var opts digestOptions
	cmd := &cobra.Command{
		Use:   "digest FILE",
		Short: "Show the digest of a transcript, and what a model would be sent",
		Long: `Print the digest of a session transcript as the worker builds it for the
extractor: the whole file, with its sub-agents' transcripts (a Claude Code
session's <session>/subagents/agent-*.jsonl), redacted. Nothing is stored
(but the index, a cache, is brought up to date for --request).

With --request, print instead the requests a model provider (anthropic,
claude-cli, openai) would get for it, in the order they are sent: for each
chunk of the digest, the system prompt and the user message, which names
the project's memories and drafts the session relates to. A session with
too little work to be worth a model call gets none; the reason goes to
stderr. Budgets are not applied.

--json prints the digest's text, size and the work it shows, or with
--request the requests.`,
		Example: `  mnemo digest ~/.claude/projects/-home-me-shop/7d3c9a1e.jsonl
  mnemo digest session.jsonl --request
  mnemo digest session.jsonl --json`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.file = args[0]
			return runDigest(cmd.Context(), f, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.request, "request", false, "print the requests a model provider would get")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

// digestJSON is what digest --json prints.
type digestJSON struct {
	Session string          `json:"session"`
	Chars   int             `json:"chars"`
	Tokens  int             `json:"tokens"`
	Turns   int             `json:"turns"`
	Work    transcript.Work `json:"work"`
	Files   []string        `json:"files"` // the transcripts read: the session's, then its sub-agents'
	Text    string          `json:"text"`
}

// requestsJSON is what digest --request --json prints.
type requestsJSON struct {
	Skipped  string            `json:"skipped,omitempty"` // why nothing would be sent
	Requests []extract.Request `json:"requests"`
}

func runDigest(ctx context.Context, f *Factory, opts digestOptions) error {
	d, files, err := readDigest(ctx, opts.file)
	if err != nil {
		return err
	}
	if opts.request {
		return printRequests(ctx, f, d, opts.json)
	}
	if !opts.json {
		// A turn at a time: a long session's digest is not held twice.
		w := bufio.NewWriterSize(f.IO.Out, 64<<10)
		if _, err := d.WriteTo(w); err != nil {
			return err
		}
		return w.Flush()
	}
	text := d.String()
	return printJSON(f.IO.Out, digestJSON{
		Session: d.Meta.SessionID, Chars: utf8.RuneCountInString(text), Tokens: d.Tokens(), Turns: len(d.Turns),
		Work: d.Work(), Files: files, Text: text,
	})
}

// readDigest digests the transcript at path and its sub-agents', whole,
// redacted as the worker redacts them.
func readDigest(ctx context.Context, path string) (*transcript.Digest, []string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, nil, err
	}
	agents, err := transcript.SubagentFiles(abs)
	if err != nil {
		return nil, nil, err
	}
	b := transcript.NewBuilder(transcript.Options{Redact: redact.New(redact.Options{}).String})
	files := append([]string{abs}, agents...)
	for _, p := range files {
		if _, err := b.ReadFile(ctx, p, 0); err != nil {
			return nil, nil, fmt.Errorf("digest: %w", err)
		}
	}
	return b.Digest(), files, nil
}

func printRequests(ctx context.Context, f *Factory, d *transcript.Digest, asJSON bool) error {
	cfg := extract.DefaultConfig(f.Env.Getenv)
	if p, err := f.Project(); err == nil {
		if fi, err := os.Stat(p.StateDir()); err == nil && fi.IsDir() {
			cfg = extractConfig(f) // the project's related memories, as the worker sends them
		}
	}
	reqs, err := extract.Requests(ctx, cfg, d)
	var skipped string
	if errors.Is(err, extract.ErrTooShort) {
		skipped, err = errors.Unwrap(err).Error(), nil
	}
	if err != nil {
		return err
	}
	if asJSON {
		if reqs == nil {
			reqs = []extract.Request{}
		}
		return printJSON(f.IO.Out, requestsJSON{Skipped: skipped, Requests: reqs})
	}
	if skipped != "" {
		fmt.Fprintln(f.IO.ErrOut, "mnemo: not sent: "+skipped)
		return nil
	}
	w := f.IO.Out
	for i, r := range reqs {
		fmt.Fprintf(w, "=== request %d of %d (part %d of %d, about %s tokens with %d of output)\n",
			i+1, len(reqs), r.Part, r.Parts, strconv.Itoa(r.Tokens), r.MaxTokens)
		fmt.Fprintf(w, "--- system\n%s\n--- user\n%s\n", r.System, r.User)
	}
	return nil
}
