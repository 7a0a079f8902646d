package hook

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/envtrust"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/plural"
	"github.com/mnemo-dev/mnemo/internal/provenance"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// startMessage is the message for the person (not the model) at a
// session's start, from agent's hook: the git conflicts in MEMORY.md
// resolved since the last one, the variables of the repository's files
// mnemo ignored, then the drafts and natives waiting for review. "" when
// there is nothing to say.
func startMessage(w *world, agent string, natives []provenance.Native) string {
	var ms []string
	for _, state := range []string{w.state, w.env.UserStateDir()} {
		if m := resolvedNote(w, state); m != "" {
			ms = append(ms, m)
		}
	}
	if m := repoEnvNote(w, agent); m != "" {
		ms = append(ms, m)
	}
	if m := reviewNudge(w, natives); m != "" {
		ms = append(ms, m)
	}
	if m := notesNudge(w); m != "" {
		ms = append(ms, m)
	}
	return strings.Join(ms, "\n")
}

// notesNudgeFile keeps, in the state folder, the day the person was last
// told of MEMORY.md's unreviewed notes.
const notesNudgeFile = "notes-nudge"

// notesNudge tells the person, at most once a day per project, which lines
// of MEMORY.md outside mnemo's block no one reviewed ([unreviewedNotes]),
// and how to review them: the agent is told to check them, but only a
// person can say they are true.
func notesNudge(w *world) string {
	notes := unreviewedNotes(w)
	if len(notes) == 0 || !onceToday(w, notesNudgeFile) {
		return ""
	}
	return "mnemo: MEMORY.md holds " + plural.N(len(notes), "line", "lines") + " outside mnemo's block that no one reviewed (" +
		plural.Of(len(notes), "line ", "lines ") + noteLines(notes) + "), which the agent may load as fact: read " +
		plural.Of(len(notes), "it", "them") + ", then run `mnemo approve MEMORY.md` (or move " + plural.Of(len(notes), "it", "them") + " into a memory with `mnemo add`)"
}

// repoEnvFile keeps, in the state folder, the day the person was last told
// which variables of the repository's files mnemo ignored.
const repoEnvFile = "repo-env-note"

// repoEnvNote tells the person, at most once a day per project, which
// variables that steer mnemo the repository's tracked files set and the
// hook ignored ([envtrust.Check]), never their values. A value the person
// set in their shell that is the same cannot be told from the
// repository's (the agent puts the project's over the shell's), so it is
// lost with it: the person is the one who can keep it, by setting it in a
// file of their own, which the check believes.
func repoEnvNote(w *world, agent string) string {
	if len(w.ignored) == 0 || !onceToday(w, repoEnvFile) {
		return ""
	}
	w.log.Info("told of ignored repository settings", "vars", envtrust.List(w.ignored))
	return "mnemo: ignored what files this repository tracks set: " + envtrust.List(w.ignored) +
		"; a value of yours that is the same cannot be told from the repository's, so this project's sessions are extracted offline: to keep yours, set it in " +
		ownSettings(agent) + " too (mnemo doctor shows which)"
}

// ownSettings names the agent's settings file of the user's own, where a
// variable set is the user's choice.
func ownSettings(agent string) string {
	switch agent {
	case "gemini":
		return "~/.gemini/settings.json or ~/.gemini/.env"
	case "codex":
		return "~/.codex/config.toml"
	}
	return "~/.claude/settings.json"
}

// onceToday reports whether the person was not told yet today what the
// state folder's file name keeps the day of, and records that they are
// now. When the day cannot be kept it reports false: better nothing told
// than the same every session.
func onceToday(w *world, name string) bool {
	today := w.now.Format("2006-01-02")
	path := filepath.Join(w.state, name)
	if data, err := os.ReadFile(path); err == nil && strings.TrimSpace(string(data)) == today {
		return false
	}
	if err := atomicfile.WriteFile(path, []byte(today+"\n"), 0o644); err != nil {
		w.log.Warn("keep the day of a message", "file", name, "err", err)
		return false
	}
	return true
}

// resolvedNote tells the person, once, that a MEMORY.md of the vault whose
// state folder is state had a git merge conflict, which mnemo resolved
// keeping both sides' lines when it regenerated the file (a session start,
// the worker, another command: [vault.TakeResolved]), and how to check.
// Claude Code loads that file as instructions: the person should know
// that mnemo rewrote it. "" when there is nothing to tell.
func resolvedNote(w *world, state string) string {
	r, ok, err := vault.TakeResolved(state)
	if err != nil {
		w.log.Warn("tell of a resolved conflict in MEMORY.md", "err", err)
	}
	if !ok {
		return ""
	}
	w.log.Info("told of a resolved conflict in MEMORY.md", "index", r.Index, "first", r.First, "last", r.Last)
	md := displayDir(w.p.Root, r.Index)
	return fmt.Sprintf("mnemo: %s had a git merge conflict (lines %d-%d): mnemo kept both sides' lines and regenerated its index; check it with `mnemo lint` and `git diff %s`",
		md, r.First, r.Last, md)
}

// nudgeFile keeps, in the state folder, the day the person was last told
// that memories wait for review.
const nudgeFile = "review-nudge"

// maxNudgeNames is how many of the files written outside mnemo the message
// names, with why each waits.
const maxNudgeNames = 3

// reviewNudge returns the message for the person (not the model) when
// drafts, or memory files written outside mnemo (natives), wait for review,
// at most once a day per project: the review debt reaches the one who can
// pay it. It names the natives that hold more than their being written
// outside mnemo, with what (committed in this clone, an instruction, a
// secret). "" when there is nothing to say today.
func reviewNudge(w *world, natives []provenance.Native) string {
	n := consolidate.Waiting(w.state)
	if n == 0 && len(natives) == 0 {
		return ""
	}
	if !onceToday(w, nudgeFile) {
		return ""
	}
	var parts []string
	if n > 0 {
		parts = append(parts, plural.N(n, "memory waits", "memories wait")+" for review")
	}
	if len(natives) > 0 {
		parts = append(parts, plural.N(len(natives), "memory file written outside mnemo waits", "memory files written outside mnemo wait")+
			" for review and "+plural.Of(len(natives), "is", "are")+" not loaded"+nativeReasons(natives))
	}
	return "mnemo: " + strings.Join(parts, "; ") + ": run `mnemo ui` (or `mnemo inbox`)"
}

// nativeReasons says, for the first few natives that hold more than their
// being written outside mnemo, what: " (name: why; name: problem)".
func nativeReasons(natives []provenance.Native) string {
	var rs []string
	more := 0
	for _, n := range natives {
		why := n.Why
		if p := n.Problem(); p != "" {
			why = strings.TrimPrefix(why+"; "+p, "; ")
		}
		if why == "" || !memory.ValidName(n.Name) {
			continue
		}
		if len(rs) == maxNudgeNames {
			more++
			continue
		}
		rs = append(rs, n.Name+": "+why)
	}
	if len(rs) == 0 {
		return ""
	}
	if more > 0 {
		rs = append(rs, "and "+strconv.Itoa(more)+" more")
	}
	return " (" + strings.Join(rs, "; ") + ")"
}
