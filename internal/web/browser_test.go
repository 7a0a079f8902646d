package web

import (
	"cmp"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// browser starts Debian's chromium headless on a fresh profile, or skips
// the test when it is not installed (.ci/run installs it).
func browser(t *testing.T, w, h int) context.Context {
	t.Helper()
	path := os.Getenv("MNEMO_CHROMIUM")
	if path == "" {
		for _, n := range []string{"chromium", "chromium-browser"} {
			if p, err := exec.LookPath(n); err == nil {
				path = p
				break
			}
		}
	}
	if path == "" {
		t.Skip("no chromium on PATH (apt-get install chromium, or set MNEMO_CHROMIUM)")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(w, h),
		chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.NoDefaultBrowserCheck,
	}
	actx, cancel := chromedp.NewExecAllocator(t.Context(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	// A bound for a browser that hangs, not a speed: TestBrowserReview
	// ran past 20 s in all (Chromium's start included) at load 15.
	ctx, cancel3 := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancel3)
	return ctx
}

// text reads the text of the element sel into out.
func text(sel string, out *string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		s, err := chromedp.Text(sel)(ctx, tg)
		*out = s
		return err
	})
}

// eval evaluates a script into out.
func eval[T any](script string, out *T) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		v, err := chromedp.Evaluate[T](script)(ctx, tg)
		*out = v
		return err
	})
}

// serve starts the fixture's page on a loopback port for the browser.
func serve(t *testing.T, fx *fixture) *Server {
	t.Helper()
	srv, err := Listen(fx.srv.cfg, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return srv
}

// shot saves a screenshot of the page in a temporary folder and logs it.
func shot(t *testing.T, dir, name string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		png, err := chromedp.CaptureScreenshot()(ctx, tg)
		if err != nil {
			return err
		}
		p := filepath.Join(dir, name+".png")
		t.Logf("screenshot: %s", p)
		return os.WriteFile(p, png, 0o644)
	})
}

// TestBrowserReview drives the page in a real browser: the keyboard
// approves a draft (j moves to it, a approves), a contradiction is
// resolved by keeping the new memory, search finds the approved memory,
// its page edits it and deletes it. Each step is checked in the vault.
func TestBrowserReview(t *testing.T) {
	fx := newFixture(t)
	fx.srv.cfg.Search = fx.recall
	ctx := browser(t, 1280, 800)
	srv := serve(t, fx)
	shots := os.Getenv("MNEMO_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	var flash, found string
	err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL()),
		chromedp.WaitVisible(`.draft.current`),
		shot(t, shots, "inbox"),
		// drafts are oldest first, by name on a tie: ci-runs-on-main-2, deploy-with-just, prices-are-strings
		chromedp.KeyEvent("j"), chromedp.KeyEvent("j"),
		chromedp.WaitVisible(`#d-prices-are-strings.current`),
		shot(t, shots, "moved"),
		chromedp.KeyEvent("a"),
		chromedp.WaitVisible(`.flash`),
		text(`.flash`, &flash),
	)
	if err != nil {
		t.Fatal(err)
	}
	if flash != "approved prices-are-strings" {
		t.Errorf("flash = %q, want approved prices-are-strings", flash)
	}
	if bad := inVault(fx, "prices-are-strings", "compare with Number()") + notDraft(fx, "prices-are-strings"); bad != "" {
		t.Fatal(bad)
	}

	err = chromedp.Do(ctx,
		chromedp.Click(`#d-deploy-with-just button[value=new]`),
		chromedp.WaitNotPresent(`#d-deploy-with-just`),
		// r puts the cursor in the reason; Enter rejects
		chromedp.WaitVisible(`#d-ci-runs-on-main-2.current`),
		chromedp.KeyEvent("r"), chromedp.KeyEvent("only on the spike branch"), chromedp.KeyEvent("\r"),
		chromedp.WaitNotPresent(`#d-ci-runs-on-main-2`),
		shot(t, shots, "inbox-empty"),
		chromedp.Navigate(strings.TrimSuffix(srv.URL(), "/?token="+srv.guard.token)+"/memories?q=prices+as+strings"),
		chromedp.WaitVisible(`a[href="/m/project/prices-are-strings"]`),
		text(`table.list tbody tr td:nth-child(2)`, &found),
		shot(t, shots, "memories"),
		chromedp.Click(`a[href="/m/project/prices-are-strings"]`),
		chromedp.WaitVisible(`details.editor`),
		chromedp.Click(`details.editor summary`),
		chromedp.SetValue(`details.editor textarea`, strings.Replace(mustRead(fx.v.Path("prices-are-strings")), "compare with Number()", "parse with Number()", 1)),
		chromedp.Click(`details.editor button`),
		chromedp.WaitVisible(`.flash`),
		text(`.flash`, &flash),
		shot(t, shots, "memory"),
	)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(found, "Prices come from the API as strings") {
		t.Errorf("search for prices strings: first result %q", found)
	}
	if bad := notDraft(fx, "ci-runs-on-main-2") + inFile(filepath.Join(fx.state, "rejected.jsonl"), `"reason":"only on the spike branch"`); bad != "" {
		t.Error(bad)
	}
	if bad := status(fx, "deploy-with-make", "superseded", "deploy-with-just"); bad != "" {
		t.Error(bad)
	}
	if bad := inVault(fx, "prices-are-strings", "parse with Number()"); bad != "" || flash != "saved prices-are-strings" {
		t.Errorf("edit: flash %q; %s", flash, bad)
	}

	err = chromedp.Do(ctx,
		eval(`window.confirm = () => true; true`, new(bool)), // the delete button asks first: answer yes
		chromedp.Click(`form.confirm button.danger`),
		chromedp.WaitNotPresent(`details.editor`),
		text(`.flash`, &flash),
	)
	if err != nil {
		t.Fatal(err)
	}
	if bad := notInVault(fx, "prices-are-strings"); bad != "" || flash != "removed prices-are-strings (kept in the state folder's forgotten/)" {
		t.Errorf("delete: flash %q; %s", flash, bad)
	}
	base := strings.TrimSuffix(srv.URL(), "/?token="+srv.guard.token)
	for _, p := range []string{"graph", "stale", "activity"} {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"+p), chromedp.WaitVisible(`main h1`), shot(t, shots, p)); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// TestBrowserNarrow renders the inbox in a narrow window and checks it
// does not scroll sideways.
func TestBrowserNarrow(t *testing.T) {
	fx := newFixture(t)
	ctx := browser(t, 390, 800)
	srv := serve(t, fx)
	var scroll, width int
	err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL()),
		chromedp.WaitVisible(`.draft.current`),
		eval(`document.documentElement.scrollWidth`, &scroll),
		shot(t, cmp.Or(os.Getenv("MNEMO_SCREENSHOTS"), t.TempDir()), "narrow"),
		eval(`window.innerWidth`, &width),
	)
	if err != nil {
		t.Fatal(err)
	}
	if scroll > width {
		t.Errorf("the inbox is %dpx wide in a %dpx window", scroll, width)
	}
}

// TestBrowserMerge merges a near-duplicate group on the Memories page:
// the other memory's text is picked, the other is marked superseded, and
// the link to it points at the memory kept.
func TestBrowserMerge(t *testing.T) {
	fx := dupFixture(t)
	ctx := browser(t, 1280, 800)
	srv := serve(t, fx)
	base := strings.TrimSuffix(srv.URL(), "/?token="+srv.guard.token)
	var flash string
	err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL()),
		chromedp.Navigate(base+"/memories"),
		chromedp.WaitVisible(`form.dup`),
		chromedp.Click(`form.dup input[name=text][value=ci-on-main]`),
		chromedp.SetValue(`form.dup select[name=fate]`, "supersede"),
		shot(t, cmp.Or(os.Getenv("MNEMO_SCREENSHOTS"), t.TempDir()), "duplicates"),
		eval(`window.confirm = () => true; true`, new(bool)),
		chromedp.Click(`form.dup button.primary`),
		chromedp.WaitVisible(`.flash`),
		text(`.flash`, &flash),
	)
	if err != nil {
		t.Fatal(err)
	}
	if flash != "merged ci-on-main into ci-runs-on-main" {
		t.Errorf("flash = %q", flash)
	}
	if bad := inVault(fx, "ci-runs-on-main", "runs on every push to main") + status(fx, "ci-on-main", memory.StatusSuperseded, "ci-runs-on-main") +
		inVault(fx, "links-to-dup", "[[ci-runs-on-main]]"); bad != "" {
		t.Error(bad)
	}
}
