package bench

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mnemo-dev/mnemo/internal/embed"
	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/project"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// HookOptions say how to run the hooks benchmark.
type HookOptions struct {
	Exe  string // the mnemo binary to run
	Ns   []int  // vault sizes
	Runs int    // runs per hook and size; 30 when 0
	Seed uint64
	// Vectors gives every memory a stand-in vector before timing, as the
	// worker would have given it the model's, so that the prompt hook runs
	// its recall by meaning: the vectors are words hashed into 512 values
	// (the model would take minutes per thousand memories; what a vector
	// says changes which memories a hook picks, not what picking costs).
	Vectors bool
	// Progress, when set, is told what the run is doing.
	Progress func(step string)
}

// A HookTiming is one hook at one vault size: process start to exit.
type HookTiming struct {
	N      int           `json:"n"`
	Event  string        `json:"event"`
	Runs   int           `json:"runs"`
	Median time.Duration `json:"-"`
	P90    time.Duration `json:"-"`
	Min    time.Duration `json:"-"`
	MedMS  float64       `json:"median_ms"`
	P90MS  float64       `json:"p90_ms"`
	MinMS  float64       `json:"min_ms"`
}

// RunHooks times mnemo's hooks as Claude Code runs them: a new process
// each time, its JSON on stdin, in a git project whose vault holds N
// synthetic memories (and its MEMORY.md). The index is built once before
// timing, as the first session of a project does.
func RunHooks(ctx context.Context, opts HookOptions) ([]HookTiming, error) {
	if opts.Runs <= 0 {
		opts.Runs = 30
	}
	var out []HookTiming
	for _, n := range opts.Ns {
		ts, err := runHooksAt(ctx, opts, n)
		if err != nil {
			return nil, err
		}
		out = append(out, ts...)
	}
	return out, nil
}

func runHooksAt(ctx context.Context, opts HookOptions, n int) ([]HookTiming, error) {
	base, err := os.MkdirTemp("", "mnemo-bench-hooks-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(base)
	root, s, run, err := hookProject(ctx, opts, n, base)
	if err != nil {
		return nil, err
	}
	events := []struct {
		name    string
		payload func(i int) string
	}{
		{"session-start", func(i int) string {
			return fmt.Sprintf(`{"session_id":"s%d","cwd":%q,"source":"startup"}`, i, root)
		}},
		{"user-prompt-submit", func(i int) string {
			q, _ := s.query()
			return fmt.Sprintf(`{"session_id":"s%d","cwd":%q,"prompt":%q}`, i, root, q)
		}},
		{"session-end", func(i int) string {
			return fmt.Sprintf(`{"session_id":"e%d","cwd":%q,"transcript_path":%q,"reason":"other"}`, i, root, filepath.Join(base, "t.jsonl"))
		}},
		// stop does nothing: its time is the floor under the others, the
		// start-up of the binary on this machine.
		{"stop", func(i int) string { return "{}" }},
	}
	var out []HookTiming
	for _, ev := range events {
		progress(opts, fmt.Sprintf("%s at %d memories", ev.name, n))
		ds := make([]time.Duration, 0, opts.Runs)
		for i := range opts.Runs {
			d, err := run(ev.name, ev.payload(i))
			if err != nil {
				return nil, fmt.Errorf("bench: hook %s: %w", ev.name, err)
			}
			ds = append(ds, d)
		}
		slices.Sort(ds)
		t := HookTiming{N: n, Event: ev.name, Runs: len(ds), Median: ds[len(ds)/2], P90: ds[len(ds)*9/10], Min: ds[0]}
		t.MedMS, t.P90MS, t.MinMS = ms(t.Median), ms(t.P90), ms(t.Min)
		out = append(out, t)
	}
	return out, nil
}

// hookProject makes, in base, a git project whose vault holds n synthetic
// memories, builds its index and runs one session start, as a project's
// first session does. run times one hook there, a new process.
func hookProject(ctx context.Context, opts HookOptions, n int, base string) (root string, s *synth,
	run func(event, stdin string) (time.Duration, error), err error) {
	root, home := filepath.Join(base, "proj"), filepath.Join(base, "home")
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		return "", nil, nil, err
	}
	os.WriteFile(filepath.Join(root, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	progress(opts, fmt.Sprintf("writing %d memories", n))
	s = newSynth(opts.Seed+1, n, time.Now())
	vdir := filepath.Join(root, ".memory")
	if err := s.writeVault(vdir); err != nil {
		return "", nil, nil, err
	}
	v, err := vault.Open(vdir, filepath.Join(base, "lock"))
	if err != nil {
		return "", nil, nil, err
	}
	if err := v.Reindex(ctx); err != nil {
		return "", nil, nil, err
	}
	os.WriteFile(filepath.Join(base, "t.jsonl"), []byte("{}\n"), 0o644) // session-end's transcript
	env := append(os.Environ(), "HOME="+home, "MNEMO_HOME="+filepath.Join(home, ".mnemo"),
		"CLAUDE_CONFIG_DIR="+filepath.Join(home, ".claude"), "MNEMO_WORKER=off")
	run = func(event, stdin string) (time.Duration, error) {
		cmd := exec.CommandContext(ctx, opts.Exe, "hook", event)
		cmd.Env, cmd.Dir, cmd.Stdin = env, root, bytes.NewReader([]byte(stdin))
		start := time.Now()
		err := cmd.Run()
		return time.Since(start), err
	}
	progress(opts, fmt.Sprintf("building the index of %d memories", n))
	warm := exec.CommandContext(ctx, opts.Exe, "reindex")
	warm.Env, warm.Dir = append(slices.Clip(env), "MNEMO_SEMANTIC=off"), root // vectors below
	if out, err := warm.CombinedOutput(); err != nil {
		return "", nil, nil, fmt.Errorf("bench: build the index: %v: %s", err, out)
	}
	if opts.Vectors {
		progress(opts, fmt.Sprintf("giving %d memories stand-in vectors", n))
		if err := standInVectors(ctx, root, home); err != nil {
			return "", nil, nil, fmt.Errorf("bench: vectors: %w", err)
		}
	}
	if _, err := run("session-start", fmt.Sprintf(`{"session_id":"warm","cwd":%q,"source":"startup"}`, root)); err != nil {
		return "", nil, nil, err
	}
	return root, s, run, nil
}

// standInVectors gives every memory of the project at root a vector of
// its words hashed (see [HookOptions.Vectors]).
func standInVectors(ctx context.Context, root, home string) error {
	env := project.Env{Home: home, Getenv: func(k string) string {
		if k == "MNEMO_HOME" {
			return filepath.Join(home, ".mnemo")
		}
		return ""
	}}
	p, err := project.Find(ctx, root, env)
	if err != nil {
		return err
	}
	db, err := index.Open(ctx, filepath.Join(p.StateDir(), index.FileName), nil)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.EmbedMissing(ctx, hashedWords{}, nil)
	return err
}

// hashedWords embeds a text as its words hashed into 512 values, of
// length 1.
type hashedWords struct{}

// ModelID is the built-in model's: the vectors stand in for its, and
// the hooks score their queries' vectors of it against them.
func (hashedWords) ModelID() string { return embed.ModelID }

func (hashedWords) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, 512)
		for _, w := range strings.Fields(strings.ToLower(t)) {
			h := fnv.New32a()
			h.Write([]byte(w))
			v[h.Sum32()%512]++
		}
		var n float64
		for _, x := range v {
			n += float64(x * x)
		}
		for j := range v {
			v[j] /= float32(math.Sqrt(max(n, 1)))
		}
		out[i] = v
	}
	return out, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func progress(opts HookOptions, step string) {
	if opts.Progress != nil {
		opts.Progress(step)
	}
}
