package hook

import (
	"context"
	"errors"

	"github.com/mnemo-dev/mnemo/internal/envtrust"
	"github.com/mnemo-dev/mnemo/internal/extract"
	"github.com/mnemo-dev/mnemo/internal/queue"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// capture queues the session's transcript for the worker and starts one
// when none runs. It returns at once: the work happens elsewhere. A
// Gemini CLI session is queued with the file it is recorded in, whichever
// of its files the hook was given (a resume names a new one too).
func capture(ctx context.Context, w *world, in Input, event string, spawn func(root, stateDir string) error) error {
	if in.SessionID == "" || in.TranscriptPath == "" {
		return errors.New("no session_id or transcript_path in the input: nothing to capture")
	}
	q, err := queue.Open(ctx, w.state, w.log)
	if err != nil {
		return err
	}
	defer q.Close()
	// The extractor this session's environment asks for travels with the
	// job, auto when it names none: a worker already running (started by
	// another session, under another $MNEMO_EXTRACTOR) uses it. When the
	// repository set a variable that steers mnemo, the user's own value of
	// it is lost (the agent replaced it): the session is extracted
	// offline, and nothing of it leaves the machine.
	x := w.env.Getenv("MNEMO_EXTRACTOR")
	if x == "" {
		x = extract.ProviderAuto
	}
	if len(w.ignored) > 0 {
		x = extract.ProviderHeuristic
		w.log.Warn("repository settings ignored", "session", in.SessionID, "vars", envtrust.List(w.ignored), "extractor", x)
	}
	id, err := q.Enqueue(ctx, queue.Job{Session: in.SessionID, Transcript: transcript.GeminiOriginal(in.TranscriptPath), Cwd: in.Cwd, Event: event, Extractor: x})
	if err != nil {
		return err
	}
	w.log.Info("queued", "job", id, "session", in.SessionID, "event", event)
	if spawn != nil {
		return spawn(w.p.Root, w.state)
	}
	return nil
}
