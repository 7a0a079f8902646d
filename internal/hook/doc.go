// Package hook answers Claude Code's (and Codex's, Gemini CLI's, Cursor's)
// hook events: SessionStart and UserPromptSubmit inject the memories worth
// having, within a budget; PreCompact and SessionEnd queue the session for
// the background worker; Stop does nothing, on purpose. SessionStart also
// tells the person (a systemMessage, at most once a day) what waits for
// their review and why: drafts, memory files written outside mnemo
// (committed in this clone, holding an instruction or a secret), and the
// lines of MEMORY.md outside mnemo's block no one reviewed, which it also
// tells the agent to check before relying on ([vault.Vault.UnreviewedNotes]).
//
// A hook never breaks the agent: it decodes any input (unknown or missing
// fields, empty, garbage, megabytes), works under a hard deadline
// ($MNEMO_HOOK_DEADLINE_SCALE lengthens them all, [DeadlineScaleVar]), prints
// all of its answer or nothing, logs every error to the state log, and
// always exits 0.
//
// A hook acts on nothing a repository put in its environment: the caller
// removes those variables first ([Runner.Ignored]); a capture names them in
// the state log and queues the session for the offline extractor, and
// SessionStart tells the person (at most once a day) which it ignored and
// where a value of their own is believed.
package hook
