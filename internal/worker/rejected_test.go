package worker

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/queue"
)

// TestStatedAfterATeammatesRejection: a fact the person states in a
// session, that a teammate rejected months before (the team's file,
// committed in the vault), is drafted for review and the log names the
// rejection; the same rejection made by this person (the state folder's
// file) drops it, and the log says whose it was.
func TestStatedAfterATeammatesRejection(t *testing.T) {
	const record = `{"name":"we-deploy-with-make-deploy","description":"We deploy with make deploy","body":"We deploy with make deploy.","by":"alice","at":"2026-06-01T09:00:00Z"}` + "\n"
	tests := []struct {
		kind    string
		file    func(p *project) string
		want    consolidate.Action
		wantLog string
	}{
		{"a teammate's", func(p *project) string { return filepath.Join(p.root, ".memory", consolidate.TeamRejections) },
			consolidate.Drafted, `msg="a teammate rejected it before: it waits for review"`},
		{"own", func(p *project) string { return filepath.Join(p.state, "rejected.jsonl") },
			consolidate.Rejected, `msg="dropped: you rejected it before"`},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			p := newProject(t)
			if err := os.WriteFile(tt.file(p), []byte(record), 0o644); err != nil {
				t.Fatal(err)
			}
			tr := filepath.Join(t.TempDir(), "s1.jsonl")
			appendLines(t, tr, line("s1", "remember: We deploy with make deploy now", 1))
			ctx := context.Background()
			if _, err := p.q.Enqueue(ctx, queue.Job{Session: "s1", Transcript: tr, Event: "session-end"}); err != nil {
				t.Fatal(err)
			}
			var logged strings.Builder
			var got []consolidate.Outcome
			pl := p.pipeline(rememberer{})
			pl.Log = slog.New(slog.NewTextHandler(&logged, nil))
			pl.OnOutcome = func(_ queue.Job, o consolidate.Outcome) { got = append(got, o) }
			open := pl.Consolidator
			pl.Consolidator = func(ctx context.Context, j queue.Job) (*consolidate.Consolidator, func(), error) {
				c, done, err := open(ctx, j)
				if err == nil {
					c.Inbox.ShareRejections(c.Project.Dir) // as the worker opens it
				}
				return c, done, err
			}
			w := p.worker(rememberer{}, time.Minute)
			w.Process = pl.Process
			if err := w.Run(ctx); err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Action != tt.want || got[0].Rejection == nil {
				t.Fatalf("outcomes = %+v, want one %s naming the rejection", got, tt.want)
			}
			if !strings.Contains(logged.String(), tt.wantLog) || !strings.Contains(logged.String(), `said \"We deploy with make deploy\"`) {
				t.Errorf("the log does not say %s of the rejection:\n%s", tt.wantLog, logged.String())
			}
		})
	}
}
