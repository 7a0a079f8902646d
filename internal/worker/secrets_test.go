package worker

import (
	"bytes"
	"context"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/extract"
	"github.com/mnemo-dev/mnemo/internal/fakeapi"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/queue"
	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// The secrets of testdata/secrets.jsonl, joined so that no whole one is
// written in a file of the repository.
var transcriptSecrets = map[string]string{
	"PASSWORD": "Tr0ub4dor" + "&24464",
	"HEXKEY":   "9f86d081884c7d659a2feaa0" + "c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
	"GHP1":     "ghp_" + "8kL2mN9vQ4rT7xW1cB5zH3j", // a tail short enough to pass for a word
	"GHP2":     "F6pS0gA2eY4uI",
	"ROOTPW":   "Hx9!kq" + "27z",
}

// secretTranscript writes testdata/secrets.jsonl with its secrets filled in.
func secretTranscript(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "secrets.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sec1.jsonl")
	text := os.Expand(string(data), func(k string) string { return transcriptSecrets[k] })
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestTranscriptSecretsNeverReachTheModel runs the worker with the
// Anthropic extractor on a session holding a password said in prose, a
// bare hex key beside the word key, a token split over two lines and a
// root pw: none of them, nor any part of them, is in the request.
func TestTranscriptSecretsNeverReachTheModel(t *testing.T) {
	req := extractionRequest(t, "sec1", secretTranscript(t))
	for _, want := range []string{"staging dashboard", "HMAC key", "release job", "[REDACTED:"} {
		if !strings.Contains(req, want) {
			t.Errorf("the request lacks %q: the digest was not sent:\n%s", want, digestOf(req))
		}
	}
	for k, s := range transcriptSecrets {
		for _, part := range []string{s, s[len(s)/2:]} {
			if strings.Contains(req, part) {
				t.Errorf("the request holds %s (or its tail %q):\n%s", k, part, digestOf(req))
			}
		}
	}
}

// extractionRequest runs the worker with the Anthropic extractor, its
// redaction on, on the transcript of session, and returns the one request
// it sent the model.
func extractionRequest(t *testing.T, session, transcript string) string {
	t.Helper()
	p := newProject(t)
	ctx := context.Background()
	model := fakeapi.New(t)
	model.PushPlain(fakeapi.Reply{Text: "[]"})
	x, err := extract.New(extract.Config{
		Provider: extract.ProviderAnthropic, APIKey: "sk-ant-test", BaseURL: model.URL(),
		MinUserTurns: 1, Backoff: time.Millisecond, Getenv: func(string) string { return "" },
	})
	if err != nil {
		t.Fatal(err)
	}
	pl := p.pipeline(FromExtract(x))
	pl.Redact = redact.New(redact.Options{}).String
	p.q.Enqueue(ctx, queue.Job{Session: session, Transcript: transcript, Event: "session-end"})
	w := &Worker{StateDir: p.state, Queue: p.q, Process: pl.Process, Log: pl.Log, Now: time.Now, Lease: time.Minute, Poll: 20 * time.Millisecond}
	if err := w.Run(ctx); err != nil {
		t.Fatal(err)
	}
	reqs := model.PlainRequests()
	if len(reqs) != 1 {
		t.Fatalf("the worker sent %d requests, want 1", len(reqs))
	}
	return reqs[0]
}

// digestOf is the digest part of an extraction request, for messages.
func digestOf(req string) string {
	if i := strings.Index(req, "<digest>"); i >= 0 {
		return req[i:]
	}
	return req
}

// leaker is an extractor whose candidates hold secrets, as a model that
// reassembled one might answer.
type leaker struct{}

func (leaker) Name() string { return "leaker" }

func (leaker) Extract(context.Context, *transcript.Digest) ([]consolidate.Fact, Usage, error) {
	return []consolidate.Fact{
		{Description: "The admin password for the staging dashboard is " + transcriptSecrets["PASSWORD"], Body: "Log in as admin.", Type: memory.TypeProject, Confidence: 0.9},
		{Description: "The release job's bot token", Body: "It is " + transcriptSecrets["GHP1"] + transcriptSecrets["GHP2"] + ".", Type: memory.TypeProject, Confidence: 0.5},
		{Description: "Deploys go through make deploy", Body: "Run make deploy from a clean tree.", Type: memory.TypeProject, Confidence: 0.9},
	}, Usage{}, nil
}

// TestCandidatesWithSecretsAreDropped: a candidate holding a secret is
// dropped with a log line that names its kind, and counted; the others are
// consolidated; the secret is in no file and in no name.
func TestCandidatesWithSecretsAreDropped(t *testing.T) {
	p, done, log := runOneJob(t, leaker{})
	if len(done) != 1 || done[0].Facts != 1 {
		t.Fatalf("jobs done = %+v, want the job done with the one clean fact", done)
	}
	for _, want := range []string{`msg="candidate dropped"`, "description: password: refused", "body: line 1: GitHub token: refused", "dropped=2"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, log.String())
		}
	}
	for _, dir := range []string{p.root, p.state, p.user} {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if strings.Contains(strings.ToLower(d.Name()), "tr0ub4dor") {
				t.Errorf("a file name holds the password: %s", path)
			}
			if data, err := os.ReadFile(path); err == nil {
				for _, s := range []string{transcriptSecrets["PASSWORD"], transcriptSecrets["GHP2"]} {
					if strings.Contains(string(data), s) {
						t.Errorf("%s holds a secret", path)
					}
				}
			}
			return nil
		})
	}
	for _, s := range []string{"Tr0ub4dor", "tr0ub4dor", transcriptSecrets["GHP2"]} {
		if strings.Contains(log.String(), s) {
			t.Errorf("the log holds a secret:\n%s", log.String())
		}
	}
}

// hostile is an extractor one of whose candidates no memory may hold: its
// description carries a MEMORY.md marker.
type hostile struct{}

func (hostile) Name() string { return "hostile" }

func (hostile) Extract(context.Context, *transcript.Digest) ([]consolidate.Fact, Usage, error) {
	return []consolidate.Fact{
		{Description: "Ends the index <!-- mnemo:end --> early", Body: "A marker.", Type: memory.TypeProject, Confidence: 0.9},
		{Description: "Deploys go through make deploy", Body: "Run make deploy from a clean tree.", Type: memory.TypeProject, Confidence: 0.9},
	}, Usage{}, nil
}

// TestOneBadFactDoesNotFailTheJob: a candidate the vault refuses is
// dropped with its reason; the job completes with the others.
func TestOneBadFactDoesNotFailTheJob(t *testing.T) {
	_, done, log := runOneJob(t, hostile{})
	if len(done) != 1 || done[0].Facts != 1 {
		t.Fatalf("jobs done = %+v, want the job done with the one good fact", done)
	}
	if !strings.Contains(log.String(), `msg="candidate dropped"`) || !strings.Contains(log.String(), "description:") {
		t.Errorf("the log does not say why the fact was dropped:\n%s", log.String())
	}
}

// runOneJob runs a worker with extractor x on one queued session and
// returns the project, the jobs done and the log.
func runOneJob(t *testing.T, x Extractor) (*project, []queue.Job, *bytes.Buffer) {
	t.Helper()
	p := newProject(t)
	ctx := context.Background()
	log := new(bytes.Buffer)
	pl := p.pipeline(x)
	pl.Log = slog.New(slog.NewTextHandler(log, nil))
	tr := filepath.Join(t.TempDir(), "s.jsonl")
	appendLines(t, tr, line("s", "deploy it", 1))
	p.q.Enqueue(ctx, queue.Job{Session: "s", Transcript: tr, Event: "session-end"})
	w := &Worker{StateDir: p.state, Queue: p.q, Process: pl.Process, Log: pl.Log, Now: time.Now, Lease: time.Minute, Poll: 20 * time.Millisecond}
	if err := w.Run(ctx); err != nil {
		t.Fatal(err)
	}
	done, _ := p.q.List(ctx, "done")
	return p, done, log
}
