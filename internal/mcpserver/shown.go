package mcpserver

import (
	"sync"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/provenance"
	"github.com/mnemo-dev/mnemo/internal/redact"
)

// shown is vault text as the server gives it to the agent: without
// secrets. No write path of mnemo stores one, but a file written into the
// vault by hand can hold one, and what reaches the model leaves the machine.
func shown(s string) string { return redact.String(s) }

// shownMemoBytes bounds the texts a [shownMemo] keeps, counted as the
// bytes of each text and of what it became.
const shownMemoBytes = 4 << 20

// A shownMemo is [shown] for a server that gives the same memories again
// and again (recall: a memory's body and description on every call that
// finds it): it keeps what each text became, so that a text is searched
// for secrets once while it stays unchanged, not on every call; a
// changed text is another key. Past shownMemoBytes it starts again
// empty. The zero value is ready for use, by any goroutine.
type shownMemo struct {
	mu    sync.Mutex
	texts map[string]string
	bytes int
}

func (c *shownMemo) shown(s string) string {
	c.mu.Lock()
	r, ok := c.texts[s]
	c.mu.Unlock()
	if ok {
		return r
	}
	r = shown(s)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bytes+len(s)+len(r) > shownMemoBytes {
		c.texts, c.bytes = nil, 0
	}
	if c.texts == nil {
		c.texts = make(map[string]string)
	}
	c.texts[s] = r
	c.bytes += len(s) + len(r)
	return r
}

// reviewOf says, for a memory no one reviewed (a file the agent wrote into
// the vault natively, or one written by hand), why it waits for review and
// what its check found, as the inbox says it; "" for a reviewed memory.
// The hooks never inject such a file; recall and get give it only marked.
// unreviewedNote follows the review mark of such a memory in the text
// shown to the agent. Who wrote it is not known (the agent natively, a
// person by hand, a teammate's commit): only that no one here reviewed it.
const unreviewedNote = "no person has confirmed it here: check it before relying on it"

func reviewOf(m *memory.Memory) string { return provenance.ReviewOf(m, secretFinder{}) }

// secretFinder finds secrets with redact's default rules.
type secretFinder struct{}

func (secretFinder) Find(s string) []redact.Finding { return redact.Find(s) }
