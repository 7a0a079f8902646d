package mcpserver

import (
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/provenance"
	"github.com/mnemo-dev/mnemo/internal/redact"
)

// shown is vault text as the server gives it to the agent: without
// secrets. No write path of mnemo stores one, but a file written into the
// vault by hand can hold one, and what reaches the model leaves the machine.
func shown(s string) string { return redact.String(s) }

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
