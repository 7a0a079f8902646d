package worker

import (
	"strings"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/provenance"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// minConfirmingCommand is the shortest command line that can confirm a
// fact: "ls" or "make" named in a fact proves nothing about it.
const minConfirmingCommand = 8

// commandRuns returns, for each shell command line of d, whether its last
// run succeeded cleanly: ok, in the foreground, its status its own (no
// pipe, || or ; gave another program's) and no failure in its output. The
// last run decides: a command that passed and then failed again confirms
// nothing (the session's final state wins).
func commandRuns(d *transcript.Digest) map[string]bool {
	runs := map[string]bool{}
	for _, t := range d.Turns {
		for _, it := range t.Items {
			c := it.Tool
			if c == nil || c.Name != "Bash" && c.Name != "PowerShell" || c.Outcome == transcript.OutcomeNone {
				continue
			}
			arg := strings.TrimSpace(c.Arg)
			if len(arg) < minConfirmingCommand {
				continue
			}
			runs[arg] = c.Outcome == transcript.OutcomeOK && !c.Background && !c.Interrupted && c.StatusOf == "" && !c.Reported
		}
	}
	return runs
}

// confirmed reports whether a command of the session confirms f, as the
// extractor claims: f names, as it ran, a command line whose last run
// succeeded cleanly ([commandRuns]), every other value of f (a URL, a
// host, a port, another command's package) is one that command line
// names or the person said, f states a fact rather than gives an
// instruction ([provenance.Instruction]: to run a command, pipe a
// download into a shell, fetch a URL, change a permission), and f does
// not speak of lifting a guard ([provenance.LiftsGuard]: "`make test`
// only passes with the sandbox disabled"). A command an
// injected text made the agent run succeeds too; only the person can make
// an instruction a memory without review, and a command's success
// confirms nothing about a value it never named ("`mix test` passes
// against db.attacker.example:5432").
func confirmed(runs map[string]bool, said *provenance.Said, f consolidate.Fact) bool {
	text := f.Description + "\n" + f.Body
	if provenance.Instruction(text) != "" || provenance.LiftsGuard(text) != "" {
		return false
	}
	for cmd, ok := range runs {
		if ok && strings.Contains(text, cmd) && onlyValuesOf(text, cmd, said) {
			return true
		}
	}
	return false
}

// onlyValuesOf reports whether every value of text is one cmd names or
// the person said.
func onlyValuesOf(text, cmd string, said *provenance.Said) bool {
	named := map[string]bool{}
	for _, v := range provenance.Values(cmd) {
		named[v] = true
	}
	for _, v := range provenance.Values(text) {
		if !named[v] && !said.SaidValue(v) {
			return false
		}
	}
	return true
}
