package mcpserver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
)

// TestRememberKeepsDistinctFacts: facts that differ in a value are
// different facts. Each pair is remembered in turn; both stay, each in its
// own file holding its own value.
func TestRememberKeepsDistinctFacts(t *testing.T) {
	tests := []struct {
		kind, a, b, valueA, valueB string
	}{
		{"environment and host", "Staging database host is db-staging.internal on port 5432",
			"Production database host is db-prod.internal on port 5432", "db-staging.internal", "db-prod.internal"},
		{"region", "The primary bucket lives in us-east-1", "The primary bucket lives in eu-west-1", "us-east-1", "eu-west-1"},
		{"version", "The API service builds with Go 1.22", "The API service builds with Go 1.23 in the worker image", "1.22", "1.23"},
		{"weekday", "Deploys go out on Tuesdays after standup", "Deploys go out on Thursdays after standup", "Tuesdays", "Thursdays"},
		{"port", "The metrics exporter listens on port 9100", "The metrics exporter listens on port 9187", "9100", "9187"},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			f := newFixture(t, nil)
			f.prompt("s", tt.a+". "+tt.b+".")
			var a, b rememberOut
			f.ok("remember", map[string]any{"description": tt.a, "fact": tt.a + "."}, &a)
			text := f.ok("remember", map[string]any{"description": tt.b, "fact": tt.b + "."}, &b)
			if a.Action != "added" || b.Action != "added" || a.Name == b.Name {
				t.Fatalf("remember = %+v, then %+v (%q); want two memories added", a, b, text)
			}
			if got := f.count(); got != 2 {
				t.Errorf("the vault holds %d memories, want 2", got)
			}
			if body := f.load(a.Name).Body; !strings.Contains(body, tt.valueA) {
				t.Errorf("%s lost its value %s: %q", a.Name, tt.valueA, body)
			}
			if body := f.load(b.Name).Body; !strings.Contains(body, tt.valueB) {
				t.Errorf("%s lacks its value %s: %q", b.Name, tt.valueB, body)
			}
		})
	}
}

// TestRememberManyFactsOfOneTemplate: sessions each remembering the gadget
// port of one service leave one memory per service.
func TestRememberManyFactsOfOneTemplate(t *testing.T) {
	f := newFixture(t, nil)
	const n = 12
	names := map[string]int{}
	for i := 1; i <= n; i++ {
		fact := fmt.Sprintf("the gadget port for service hk%d is 9%d", i, i)
		f.prompt(fmt.Sprintf("session-%d", i), "Remember: "+fact)
		var out rememberOut
		text := f.ok("remember", map[string]any{"fact": fact}, &out)
		if out.Action != "added" {
			t.Errorf("remember(%q) = %q, want added", fact, text)
			continue
		}
		names[out.Name] = i
	}
	if got := f.count(); got != n || len(names) != n {
		t.Errorf("the vault holds %d memories (%d names answered), want %d", got, len(names), n)
	}
	for name, i := range names {
		if want := fmt.Sprintf("hk%d is 9%d", i, i); !strings.Contains(f.load(name).Body, want) {
			t.Errorf("%s = %q, want it to say %q", name, f.load(name).Body, want)
		}
	}
}

// TestRememberNearDuplicate: the same fact again is reported and named,
// and the committed file is not rewritten; force writes a new memory
// beside it, never over it.
func TestRememberNearDuplicate(t *testing.T) {
	f := newFixture(t, nil)
	f.prompt("s", "Remember: the staging database host is db-staging.internal on port 5432; connect through the VPN.")
	fact := map[string]any{
		"description": "Staging database host is db-staging.internal on port 5432",
		"fact":        "Staging database host is db-staging.internal on port 5432; connect through the VPN.",
	}
	var first rememberOut
	f.ok("remember", fact, &first)
	file := ".memory/" + first.Name + ".md"
	before := f.read(file)

	again := map[string]any{
		"description": "The staging database host is db-staging.internal, on port 5432",
		"fact":        "Staging database host: db-staging.internal on port 5432; connect through the VPN.",
	}
	var dup rememberOut
	text := f.ok("remember", again, &dup)
	if dup.Action != "not_written" || dup.Existing != first.Name || !strings.Contains(text, first.Name) || !strings.Contains(text, "force") {
		t.Errorf("remember(the same fact) = %+v (%q), want not_written naming %s", dup, text, first.Name)
	}
	if got := f.read(file); got != before {
		t.Errorf("the duplicate rewrote %s:\n%s\nwas:\n%s", file, got, before)
	}
	if got := f.count(); got != 1 {
		t.Errorf("the vault holds %d memories, want 1", got)
	}
	// The sighting is provenance, kept in the state folder.
	if data, err := os.ReadFile(filepath.Join(f.state, "provenance.jsonl")); err != nil || !strings.Contains(string(data), `"memory":"`+first.Name+`"`) {
		t.Errorf("no provenance recorded for %s: %v %s", first.Name, err, data)
	}

	forced := map[string]any{"force": true}
	for k, v := range again {
		forced[k] = v
	}
	var beside rememberOut
	f.ok("remember", forced, &beside)
	if beside.Action != "added" || beside.Name == first.Name {
		t.Errorf("remember(force) = %+v, want a new memory beside %s", beside, first.Name)
	}
	if got := f.read(file); got != before {
		t.Errorf("force rewrote %s", file)
	}
	if got := f.count(); got != 2 {
		t.Errorf("after force the vault holds %d memories, want 2", got)
	}
}

// TestRememberRewordingKeepsTheOld: a statement of the same topic that
// drops a detail of a memory (its lockfile) is a new memory; the old one
// keeps what it said. Before, a 40 % word overlap replaced its text.
func TestRememberRewordingKeepsTheOld(t *testing.T) {
	f := newFixture(t, nil)
	f.prompt("s", pnpmPrompt)
	var first, second rememberOut
	f.ok("remember", pnpmFact, &first)
	before := f.read(".memory/" + first.Name + ".md")
	text := f.ok("remember", map[string]any{
		"description": "The web frontend uses pnpm as its package manager, pinned to pnpm 9",
		"body":        "Install packages in web/ with pnpm add; pnpm 9 is pinned in packageManager.",
		"type":        "feedback",
	}, &second)
	if second.Action != "added" || second.Name == first.Name {
		t.Errorf("remember(a rewording) = %q, want a new memory", text)
	}
	if got := f.read(".memory/" + first.Name + ".md"); got != before {
		t.Errorf("%s was rewritten:\n%s", first.Name, got)
	}
}

// TestRememberRejectedParaphrase: a fact a person rejected is not drafted
// again in other words that name the same values; a fact with another
// value is.
func TestRememberRejectedParaphrase(t *testing.T) {
	f := newFixture(t, nil)
	var draft rememberOut
	f.ok("remember", map[string]any{"fact": "The gadget port for service hk3 is 93", "confidence": 0.5}, &draft)
	if draft.Action != "drafted" {
		t.Fatalf("remember(low confidence) = %+v, want drafted", draft)
	}
	in, err := consolidate.OpenInbox(f.state)
	if err != nil {
		t.Fatal(err)
	}
	if err := in.LockWith(f.vault()).Reject(t.Context(), draft.Name, "wrong port", now); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		fact, want string
	}{
		{"Service hk3 listens for gadgets on port 93", "not_written"},
		{"The gadget port of service hk3 is 93.", "not_written"},
		{"Gadget traffic for hk3 goes to port 93", "not_written"},
		{"Service hk4 listens for gadgets on port 94", "drafted"},
		{"The staging gadget port for service hk3 is 93", "drafted"},
	}
	for _, tt := range tests {
		var out rememberOut
		text := f.ok("remember", map[string]any{"fact": tt.fact, "confidence": 0.5}, &out)
		if out.Action != tt.want {
			t.Errorf("remember(%q) after the rejection = %q (%s), want %s", tt.fact, text, out.Action, tt.want)
		}
	}
}
