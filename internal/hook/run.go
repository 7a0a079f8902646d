package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/mnemo-dev/mnemo/internal/envtrust"
	"github.com/mnemo-dev/mnemo/internal/project"
	"github.com/mnemo-dev/mnemo/internal/recall"
)

// Events mnemo handles, as named on the command line.
const (
	SessionStart     = "session-start"
	UserPromptSubmit = "user-prompt-submit"
	PreCompact       = "pre-compact"
	SessionEnd       = "session-end"
	Stop             = "stop"
)

// Events lists them.
var Events = []string{SessionStart, UserPromptSubmit, PreCompact, SessionEnd, Stop}

// Deadlines: past these a hook gives up and prints nothing. The agent waits
// on session-start and user-prompt-submit; the capture hooks share Claude
// Code's 1.5 s SessionEnd budget.
var deadlines = map[string]time.Duration{
	SessionStart:     2 * time.Second,
	UserPromptSubmit: 1 * time.Second,
	PreCompact:       1 * time.Second,
	SessionEnd:       1 * time.Second,
	Stop:             100 * time.Millisecond,
}

// DeadlineScaleVar names the environment variable that multiplies every
// hook's deadline by a number from 1 to 100: for a machine too slow or too
// busy for them (the agent then waits that much longer), and for tests,
// whose hooks must give the same answer however loaded the machine is.
const DeadlineScaleVar = "MNEMO_HOOK_DEADLINE_SCALE"

// maxDeadlineScale bounds DeadlineScaleVar: 100 makes session-start's 2 s
// more than three minutes.
const maxDeadlineScale = 100

// deadlineScale returns the factor DeadlineScaleVar sets, 1 when unset,
// and an error naming a value it does not take.
func deadlineScale(env project.Env) (float64, error) {
	s := env.Getenv(DeadlineScaleVar)
	if s == "" {
		return 1, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !(f >= 1 && f <= maxDeadlineScale) { // NaN fails both
		return 1, fmt.Errorf("$%s %q is not a number from 1 to %d: deadlines not scaled", DeadlineScaleVar, s, maxDeadlineScale)
	}
	return f, nil
}

// A Runner runs hooks. Its fields are the world a hook sees.
type Runner struct {
	Agent  string // claude-code (default), codex, gemini, cursor: decides the output's shape
	Env    project.Env
	Now    func() time.Time
	Getwd  func() (string, error)
	Stdout io.Writer

	// Spawn starts the background worker for a state folder, detached; nil
	// starts nothing.
	Spawn func(root, stateDir string) error

	// Semantic embeds prompts for recall by meaning; nil turns it off. A
	// hook only embeds the prompt, never the vault (the worker does).
	Semantic recall.QueryEmbedder

	// Ignored are the variables of the agent's environment that steer
	// mnemo and that the repository's tracked files set ([envtrust.Check]),
	// which Env no longer holds: a capture names them in the state log and
	// queues the session for the offline extractor, since the user's own
	// values are lost.
	Ignored []envtrust.Finding

	// For tests: what answers an event (nil: handle), and the deadlines
	// (nil: deadlines).
	respond   func(ctx context.Context, w *world, event string, in Input) ([]byte, error)
	deadlines map[string]time.Duration
}

// Run handles one event: it reads the input from stdin, answers on Stdout
// (everything or nothing), and logs errors to the state log. It returns
// nothing because a hook's only way to fail is silently.
func (r *Runner) Run(ctx context.Context, event string, stdin io.Reader) {
	if r.Env.Getenv("MNEMO_CHILD") != "" {
		return // a session mnemo itself started (the claude -p extractor)
	}
	start := r.Now()
	limits, respond := r.deadlines, r.respond
	if limits == nil {
		limits = deadlines
	}
	if respond == nil {
		respond = r.handle
	}
	scale, serr := deadlineScale(r.Env)
	limit := time.Duration(float64(limits[event]) * scale)
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	in, derr := decodeBy(ctx, stdin)
	w := r.world(ctx, in)
	if derr != nil {
		w.log.Warn("hook input", "event", event, "err", derr)
	}
	if serr != nil {
		w.log.Warn("hook deadline", "event", event, "err", serr)
	}
	type answer struct {
		out []byte
		err error
	}
	done := make(chan answer, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- answer{err: fmt.Errorf("panic: %v", p)}
			}
		}()
		out, err := respond(ctx, w, event, in)
		done <- answer{out, err}
	}()
	select {
	case a := <-done:
		if a.err != nil {
			w.log.Error("hook failed", "event", event, "session", in.SessionID, "err", a.err)
			return
		}
		if len(a.out) > 0 {
			r.Stdout.Write(a.out)
		}
		w.log.Debug("hook", "event", event, "ms", r.Now().Sub(start).Milliseconds())
	case <-ctx.Done():
		w.log.Error("hook gave up at its deadline", "event", event, "session", in.SessionID, "deadline", limit)
	}
}

func (r *Runner) handle(ctx context.Context, w *world, event string, in Input) ([]byte, error) {
	if w.err != nil {
		return nil, w.err
	}
	switch event {
	case SessionStart:
		text, natives, err := sessionStart(ctx, w, in, r.Agent)
		if err != nil {
			return nil, err
		}
		msg := ""
		if r.showsMessages() { // what is told once is not spent where no one sees it
			msg = startMessage(w, r.Agent, natives)
		}
		return r.output("SessionStart", text, msg), nil
	case UserPromptSubmit:
		text, err := userPromptSubmit(ctx, w, in)
		return r.output("UserPromptSubmit", text, ""), err
	case PreCompact, SessionEnd:
		return nil, capture(ctx, w, in, event, r.Spawn)
	case Stop:
		return nil, nil // anything printed here would keep the agent working
	}
	return nil, fmt.Errorf("unknown event %q", event)
}

// showsMessages reports whether the agent shows the person a hook's
// message (systemMessage): Cursor shows none.
func (r *Runner) showsMessages() bool { return r.Agent != "cursor" }

// output wraps context for the agent, and a message for the person where
// the agent shows one (systemMessage); both empty print nothing.
func (r *Runner) output(event, context, message string) []byte {
	if context == "" && message == "" {
		return nil
	}
	var v any
	switch r.Agent {
	case "cursor":
		if event != "SessionStart" || context == "" {
			return nil // Cursor takes no context before a prompt, and shows no message
		}
		v = map[string]string{"additional_context": context}
	case "gemini":
		if event == "UserPromptSubmit" {
			event = "BeforeAgent"
		}
		fallthrough
	default:
		out := map[string]any{}
		if context != "" {
			out["hookSpecificOutput"] = map[string]string{"hookEventName": event, "additionalContext": context}
		}
		if message != "" {
			out["systemMessage"] = message
		}
		v = out
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil
	}
	return b.Bytes()
}

// stateLog returns a logger appending to the log file in dir.
func stateLog(dir string) *slog.Logger {
	if err := os.MkdirAll(dir, 0o755); err == nil {
		if f, err := os.OpenFile(filepath.Join(dir, "log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			return slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelInfo}))
		}
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

var errNoProject = errors.New("no project folder in the input or the environment")

// decodeBy is [Decode] within ctx's deadline: a writer that never sends a
// whole value nor closes its end (stdin left open) costs the hook its
// deadline, not forever. The reading goroutine is left blocked; the
// process ends right after.
func decodeBy(ctx context.Context, r io.Reader) (Input, error) {
	type decoded struct {
		in  Input
		err error
	}
	done := make(chan decoded, 1)
	go func() {
		in, err := Decode(r)
		done <- decoded{in, err}
	}()
	select {
	case d := <-done:
		return d.in, d.err
	case <-ctx.Done():
		return Input{}, fmt.Errorf("read stdin: no whole input by the deadline: %w", ctx.Err())
	}
}
