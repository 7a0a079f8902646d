package cli

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/recall"
	"github.com/mnemo-dev/mnemo/internal/staleness"
	"github.com/mnemo-dev/mnemo/internal/web"
)

type uiOptions struct {
	addr   string
	noOpen bool
}

func newUICmd(f *Factory) *cobra.Command {
	var opts uiOptions
	cmd := &cobra.Command{
		Use:   "ui",
		Short: "Review drafts and memories in a local web page",
		Long: `Serve the review page on a loopback address and print its URL, which
carries a random token; the page opens in your browser unless --no-open.
The inbox shows each draft with why it is a draft, the excerpt of the
session it came from and the memories like it: approve (a, or several at once), edit then approve
(e), reject with a reason (r); j and k move. A proposed change shows as a
diff, a contradiction side by side (keep old, keep new, keep both). The
other pages list and search the memories (near duplicates grouped, to
merge into one), show what is stale (follow a file's rename, re-anchor a
memory whose files still say what it claims), the [[link]] graph and the
worker's activity.

Only this machine can reach the page, and only with the token; every
change goes through the same checks as the CLI. Ctrl-C stops it.`,
		Example: `  mnemo ui
  mnemo ui --no-open --addr 127.0.0.1:7777`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !web.Loopback(opts.addr) {
				return usageErrorf("--addr %s is not a loopback address (127.0.0.1:PORT, [::1]:PORT or localhost:PORT)", opts.addr)
			}
			return runUI(cmd.Context(), f, opts)
		},
	}
	cmd.Flags().StringVar(&opts.addr, "addr", "127.0.0.1:0", "loopback address to listen on; port 0 picks a free one")
	cmd.Flags().BoolVar(&opts.noOpen, "no-open", false, "print the URL without opening a browser")
	return cmd
}

func runUI(ctx context.Context, f *Factory, opts uiOptions) error {
	cfg, err := uiConfig(ctx, f)
	if err != nil {
		return err
	}
	srv, err := web.Listen(cfg, opts.addr)
	if err != nil {
		return err
	}
	fmt.Fprintln(f.IO.Out, srv.URL())
	if !opts.noOpen {
		openBrowser(srv.URL())
	}
	fmt.Fprintln(f.IO.ErrOut, "mnemo ui: serving on loopback; Ctrl-C stops it")
	err = srv.Serve(ctx)
	fmt.Fprintln(f.IO.ErrOut, "mnemo ui: stopped; run 'mnemo ui' again to reach the page (the token changes each time)")
	return err
}

// uiConfig wires the page to the vaults, the inbox, recall and verify's verdicts.
func uiConfig(ctx context.Context, f *Factory) (web.Config, error) {
	pv, err := f.Vault(false)
	if err != nil {
		return web.Config{}, err
	}
	uv, err := f.Vault(true)
	if err != nil {
		return web.Config{}, err
	}
	in, err := f.rejecter(ctx) // the page rejects drafts too
	if err != nil {
		return web.Config{}, err
	}
	state, err := f.StateDir(false)
	if err != nil {
		return web.Config{}, err
	}
	cfg := web.Config{Project: pv, User: uv, Inbox: in, State: state, Now: f.Now,
		Suspects: indexed(f, (*index.DB).Suspects),
		Docs:     indexed(f, (*index.DB).All),
		Checker:  uiChecker{f},
	}
	cfg.Search = func(ctx context.Context, q recall.Query) ([]recall.Result, error) {
		return indexed(f, func(db *index.DB, ctx context.Context) ([]recall.Result, error) {
			rc := recall.DefaultConfig()
			if verdicts, err := db.Suspects(ctx); err == nil {
				rc.Suspect = staleness.SuspectFunc(verdicts) // what the last mnemo verify found
			}
			return recall.New(db, rc).Recall(ctx, q)
		})(ctx)
	}
	return cfg, nil
}

// indexed makes fn a function over the synced index of the project and
// user vaults, opened for each call: the page reads what the files say now.
func indexed[T any](f *Factory, fn func(*index.DB, context.Context) (T, error)) func(context.Context) (T, error) {
	return func(ctx context.Context) (T, error) {
		db, _, err := openSyncedIndex(ctx, f, false)
		if err != nil {
			var zero T
			return zero, err
		}
		defer db.Close()
		return fn(db, ctx)
	}
}

// openBrowser asks the desktop to open url; a machine without one just
// has the printed URL.
func openBrowser(url string) {
	name := "xdg-open"
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		name = "explorer"
	}
	c := exec.Command(name, url)
	if err := c.Start(); err == nil {
		go c.Wait() // reaped when it exits; the browser outlives the page's command
	}
}
