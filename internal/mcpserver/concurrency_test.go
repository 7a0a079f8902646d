package mcpserver_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// TestWritersShareTheVault has the server and another process (this test,
// writing as the CLI and the hooks do) write one vault at once: every
// memory lands, MEMORY.md lists them all, and recall sees the other
// process's writes, new files and edits in place alike, without a restart.
func TestWritersShareTheVault(t *testing.T) {
	f := newFixture(t, nil)
	f.prompt("s", "Remember the zebra queue rules 0 1 2 3 4 5 6 7: zebra jobs retry that many times.")
	v := f.vault()
	const n = 8
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			m := memory.New(memory.Header{Name: fmt.Sprintf("cli-fact-%d", i), Description: fmt.Sprintf("Falcon service rule %d from the CLI", i),
				Type: memory.TypeProject, Created: now, Updated: now, Source: "manual", Confidence: 1}, "Written by another process.")
			if err := v.Create(context.Background(), m); err != nil {
				t.Error(err)
			}
		})
		wg.Go(func() { // callTool, not f.ok: a goroutine may not fail the test, nor fill f's schema cache
			if _, err := callTool(f.session, "remember", map[string]any{"description": fmt.Sprintf("Zebra queue rule %d remembered by the agent", i),
				"fact": fmt.Sprintf("Rule %d: zebra jobs retry %d times.", i, i), "force": true}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if got := f.count(); got != 2*n {
		t.Errorf("vault holds %d memories, want %d", got, 2*n)
	}
	index := f.read(".memory/MEMORY.md")
	if got := strings.Count(index, "\n- ["); got != 2*n {
		t.Errorf("MEMORY.md lists %d memories, want %d:\n%s", got, 2*n, index)
	}
	var out recallOut
	f.ok("recall", map[string]any{"query": "falcon service", "k": 20}, &out)
	if len(out.Memories) != n || !strings.HasPrefix(out.Memories[0].Name, "cli-fact-") {
		t.Errorf("recall(falcon) = %v, want the %d memories the other process wrote", out.names(), n)
	}

	// An edit in place (no rename, the folder's time unchanged) is seen too.
	f.write(".memory/cli-fact-0.md", mem("cli-fact-0", "project", "Falcon service rule 0 from the CLI", "Now mentions the quokka gateway."))
	deadline := time.Now().Add(15 * time.Second)
	for {
		out = recallOut{}
		f.ok("recall", map[string]any{"query": "quokka gateway"}, &out)
		if len(out.Memories) == 1 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(out.Memories) != 1 || out.Memories[0].Name != "cli-fact-0" {
		t.Errorf("recall(quokka) = %v after an edit in place, want cli-fact-0", out.names())
	}
}

// TestIdleRelease lets the server close its index when idle, then checks
// that it reopens it on the next call and sees what changed meanwhile.
func TestIdleRelease(t *testing.T) {
	if os.Getenv(binEnv) != "" {
		t.Skip("the idle release cannot be shortened in a built mnemo")
	}
	f := newFixture(t, map[string]string{".memory/use-pnpm.md": pnpmFile}, "MNEMO_MCPSERVER_TEST_IDLE=100ms")
	var out recallOut
	f.ok("recall", map[string]any{"query": "pnpm"}, &out)
	time.Sleep(400 * time.Millisecond) // the index is closed now
	m := memory.New(memory.Header{Name: "otter-gateway", Description: "The otter gateway fronts the API",
		Type: memory.TypeProject, Created: now, Updated: now, Confidence: 1}, "Written while the server was idle.")
	if err := f.vault().Create(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	time.Sleep(400 * time.Millisecond)
	for _, q := range []string{"otter gateway", "pnpm"} {
		out = recallOut{}
		f.ok("recall", map[string]any{"query": q}, &out)
		if len(out.Memories) != 1 {
			t.Errorf("recall(%q) after an idle release = %v, want one memory", q, out.names())
		}
	}
}
