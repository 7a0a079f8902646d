package cli

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gofrs/flock"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/mnemo-dev/mnemo/internal/embed"
	"github.com/mnemo-dev/mnemo/internal/gittest"
	"github.com/mnemo-dev/mnemo/internal/hook"
	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/queue"
)

var update = flag.Bool("update", false, "rewrite the cmp targets of testscript scripts")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"mnemo": func() { os.Exit(Run(context.Background(), os.Args[1:], Stdio())) },
	})
}

// TestScripts runs the end-to-end scripts in testdata/script: each runs the
// real mnemo binary in a fresh folder with its own HOME, MNEMO_HOME and git
// identity.
func TestScripts(t *testing.T) {
	// testscript makes the folder of its work dirs in $GOTMPDIR and
	// removes it only after every script in Dir ran, so each run under
	// -run left an empty go-test-script* behind: it goes in this test's
	// own temporary folder, removed when the test ends.
	t.Setenv("GOTMPDIR", t.TempDir())
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// expand FILE...: replace $VAR and ${VAR} in each file with the
			// script's environment, for hook payloads that name $WORK.
			"expand": func(ts *testscript.TestScript, neg bool, args []string) {
				for _, f := range args {
					ts.Check(os.WriteFile(ts.MkAbs(f), []byte(os.Expand(ts.ReadFile(f), ts.Getenv)), 0o644))
				}
			},
			// teammate DIR: the files of DIR, a folder of the script's git
			// work tree, become a teammate's: committed in another clone and
			// pulled (a commit made here would vouch for none of them).
			"teammate": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: teammate DIR")
				}
				other, err := os.MkdirTemp("", "mnemo-teammate-")
				ts.Check(err)
				ts.Defer(func() { os.RemoveAll(other) })
				ts.Check(gittest.Share(ts.MkAbs(args[0]), other))
			},
			"mode":        checkMode,
			"damageindex": damageIndex,
			"staleindex":  staleIndex,
			"oldvectors":  oldVectors,
			"tokens":      checkTokens,
			"workerlock":  workerLock(),
		},
		Setup: func(env *testscript.Env) error {
			// A race-detecting build sleeps a second before it exits, so
			// that reports from other threads can finish printing; every
			// mnemo a script runs (and every hook or worker that one
			// starts) paid it: most of the race pass's time. Races found
			// still fail the command (exit 66).
			env.Setenv("GORACE", strings.TrimSpace(env.Getenv("GORACE")+" atexit_sleep_ms=0"))
			// The scripts check what a hook gives, not how fast: at their
			// real deadlines (1 s for a prompt) hooks under -race at load
			// 10 gave up and printed nothing (hook_prompt, worker_prune,
			// hook_clone_index failed so). The deadlines themselves are
			// tested in package hook (TestDeadline, TestDeadlineScale).
			env.Setenv(hook.DeadlineScaleVar, "20")
			home := filepath.Join(env.WorkDir, "home")
			env.Setenv("HOME", home)
			env.Setenv("MNEMO_HOME", filepath.Join(home, ".mnemo"))
			env.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, ".claude"))
			env.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
			// HOME is inside the script's repository; on a person's machine
			// the user vault is not in the project's git work tree.
			env.Setenv("GIT_CEILING_DIRECTORIES", home)
			env.Setenv("GIT_AUTHOR_NAME", "mnemo test")
			env.Setenv("GIT_AUTHOR_EMAIL", "test@example.com")
			env.Setenv("GIT_COMMITTER_NAME", "mnemo test")
			env.Setenv("GIT_COMMITTER_EMAIL", "test@example.com")
			env.Setenv("EDITOR", "")
			env.Setenv("VISUAL", "")
			return os.MkdirAll(home, 0o755)
		},
	})
}

// checkMode is the script command "mode FILE PERM": FILE's permission bits
// are PERM (octal), or with !, are not.
func checkMode(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: mode FILE PERM")
	}
	want, err := strconv.ParseUint(args[1], 8, 32)
	ts.Check(err)
	fi, err := os.Stat(ts.MkAbs(args[0]))
	ts.Check(err)
	if got := fi.Mode().Perm(); (got == os.FileMode(want)) == neg {
		ts.Fatalf("%s has mode %#o, want %s%#o", args[0], got, map[bool]string{true: "not "}[neg], want)
	}
}

// oldVectors is the script command "oldvectors": embed every memory of
// each index under $MNEMO_HOME again as a build with another model would
// have (the built-in model's vectors under another id, so that a process
// that scored them would still find by meaning), as after an upgrade.
func oldVectors(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: oldvectors")
	}
	paths, err := filepath.Glob(filepath.Join(ts.Getenv("MNEMO_HOME"), "state", "*", index.FileName))
	ts.Check(err)
	if len(paths) == 0 {
		ts.Fatalf("no index under $MNEMO_HOME/state")
	}
	ctx := context.Background()
	for _, p := range paths {
		db, err := index.Open(ctx, p, nil)
		ts.Check(err)
		_, err = db.EmbedMissing(ctx, olderModel{embed.NewLazy()}, nil)
		ts.Check(err)
		ts.Check(db.Close())
	}
}

// olderModel is the built-in model named as another build's.
type olderModel struct{ *embed.Lazy }

func (olderModel) ModelID() string { return "use-lite-older" }

// checkTokens is the script command "tokens MAX FILE...": the files cost
// at most MAX tokens together ([memory.EstimateTokens]), or with !, more.
// A hook's JSON output counts as the context it adds.
func checkTokens(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: tokens MAX FILE...")
	}
	limit, err := strconv.Atoi(args[0])
	ts.Check(err)
	n := 0
	for _, f := range args[1:] {
		text := ts.ReadFile(f)
		var out struct {
			HookSpecificOutput struct {
				AdditionalContext string `json:"additionalContext"`
			} `json:"hookSpecificOutput"`
		}
		if json.Unmarshal([]byte(text), &out) == nil {
			text = out.HookSpecificOutput.AdditionalContext
		}
		n += memory.EstimateTokens(text)
	}
	if (n > limit) != neg {
		ts.Fatalf("%s cost %d tokens, want %s %d", strings.Join(args[1:], " + "), n, map[bool]string{false: "at most", true: "more than"}[neg], limit)
	}
	ts.Logf("%s cost %d tokens", strings.Join(args[1:], " + "), n)
}

// workerLock returns the script command "workerlock hold|release": hold
// the worker lock of the script's one state folder, as a running worker
// does, or let it go (it is let go when the script ends, too).
func workerLock() func(ts *testscript.TestScript, neg bool, args []string) {
	var mu sync.Mutex // guards held
	held := map[*testscript.TestScript]*flock.Flock{}
	return func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 || args[0] != "hold" && args[0] != "release" {
			ts.Fatalf("usage: workerlock hold|release")
		}
		mu.Lock()
		defer mu.Unlock()
		if args[0] == "release" {
			if fl := held[ts]; fl != nil {
				ts.Check(fl.Unlock())
				delete(held, ts)
			}
			return
		}
		paths, err := filepath.Glob(filepath.Join(ts.Getenv("MNEMO_HOME"), "state", "*"))
		ts.Check(err)
		if len(paths) != 1 {
			ts.Fatalf("workerlock: %d state folders, want 1", len(paths))
		}
		fl := flock.New(filepath.Join(paths[0], queue.WorkerLockFile))
		ok, err := fl.TryLock()
		ts.Check(err)
		if !ok {
			ts.Fatalf("workerlock: the lock is held already")
		}
		held[ts] = fl
		ts.Defer(func() { fl.Unlock() })
	}
}
