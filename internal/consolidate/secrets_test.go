package consolidate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/redact"
)

var fakeGHP = "ghp_" + "8kL2mN9vQ4rT7xW1cB5zH3jF6pS0gA2eY4uI"

// TestFactsWithSecretsAreRefused: a fact holding a secret, in any field
// and whatever its fate would be (vault or inbox), is refused before it is
// named, searched for or written.
func TestFactsWithSecretsAreRefused(t *testing.T) {
	tests := []struct {
		name string
		f    Fact
		want string
	}{
		{"description, for the vault", Fact{Description: "The admin password for the staging dashboard is Tr0ub4dor&24464", Body: "Log in as admin.", Confidence: 0.9},
			"description: password: refused"},
		{"body, for the inbox", Fact{Description: "The release bot token", Body: "It is " + fakeGHP + ".", Confidence: 0.5},
			"body: line 1: GitHub token: refused"},
		{"why", Fact{Description: "Releases are cut on Tuesdays", Body: "Cut them on Tuesdays.", Why: "pasted with " + fakeGHP, Confidence: 0.9},
			"why: GitHub token: refused"},
		{"name given", Fact{Name: "token-" + strings.ToLower(fakeGHP[4:]), Description: "The release bot", Body: "It runs nightly.", Confidence: 0.9},
			"name: "},
	}
	e := setup(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, call := range []func(Fact) (Outcome, error){
				func(f Fact) (Outcome, error) { return e.c.Plan(e.ctx, f) },
				func(f Fact) (Outcome, error) { return e.c.Add(e.ctx, f) },
				func(f Fact) (Outcome, error) { return e.c.AddNew(e.ctx, f) },
			} {
				o, err := call(tt.f)
				if !errors.Is(err, redact.ErrSecret) || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("outcome %+v, error %v; want a refusal naming %q", o, err, tt.want)
				}
			}
		})
	}
	if n, drafts := e.count(t); n != 0 || drafts != 0 {
		t.Errorf("the vault holds %d memories and the inbox %d drafts, want none", n, drafts)
	}
}

// TestInboxPutRefusesSecrets: the inbox, which the vault's door does not
// cover, refuses a draft holding a secret.
func TestInboxPutRefusesSecrets(t *testing.T) {
	e := setup(t)
	m := memory.New(memory.Header{Name: "bot-token", Description: "The bot token", Type: "project"}, "token "+fakeGHP+"\n")
	if err := e.c.Inbox.Put(m); !errors.Is(err, redact.ErrSecret) || !strings.Contains(err.Error(), "body: line 1: GitHub token") {
		t.Errorf("Put = %v, want the body's token refused", err)
	}
	if _, err := os.Stat(filepath.Join(e.c.Inbox.Dir, "bot-token.md")); err == nil {
		t.Errorf("the draft was written")
	}
}
