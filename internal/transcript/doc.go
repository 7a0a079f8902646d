// Package transcript reads Claude Code session transcripts and turns them
// into digests for memory extraction.
//
// A transcript is a JSONL file under ~/.claude/projects/<project>/, one JSON
// object per line, appended to while the session runs. Codex CLI's rollout
// files (~/.codex/sessions/…/rollout-*.jsonl) are read too, each line
// turned into the entry of the same meaning (codex.go), and Gemini CLI's
// session documents, whose offsets count messages (gemini.go). Its format is not a
// documented contract, so a [Reader] is tolerant: lines that are not JSON,
// lines of unknown types, fields of unexpected types and invalid UTF-8 are
// skipped or repaired, never fatal. A Reader starts at a byte offset and
// reports the offset of the end of the last complete line it read
// ([Reader.Offset]); an unfinished last line (a file still being written) is
// left for the next read. A session is thus processed incrementally: a
// PreCompact job and a later SessionEnd job never read the same line twice.
//
// A [Digest] is the compact, ordered text of what happened, built by a
// [Builder] (or [Build]) from entries: user prompts (cleaned of injected
// context and command wrappers), assistant prose, one line per tool call
// with its key argument and outcome, the lines of errors that tell most
// (a location, a limit and its value, a typed error; chosen by what they
// say, not by the word "error"), the last lines of test, build, lint and
// commit commands even when they succeed (and the failure a pipe hides),
// rejections of tool calls with the person's feedback, answers with their
// options, the files read, edited and created, failed calls and what later
// fixed them, and compaction summaries cut section by section. Sub-agent
// conversations are labelled as the parent agent's and linked to the call
// that started them; each report is given once. Thinking, progress lines,
// snapshots and other tool output are left out; long texts keep their head
// and tail. Text that arrives in the same message as a tool result is tool
// output, never the person's: it is shown as "tool output:", and
// [Digest.Said] (the person's own words, against which what an agent or an
// extractor writes is checked) leaves it out. [Digest.String] documents the
// text format; [Digest.Chunks] splits it under a token budget at turn
// boundaries.
//
// Secrets are not this package's business, but a digest is built to be
// redacted: [Options.Redact] is applied to every text before it is cut.
//
// Non-goals: rebuilding the parentUuid tree of rewinds (entries are taken in
// file order) and reading spilled tool-result files.
package transcript
