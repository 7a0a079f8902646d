// Package provenance decides whether a person stated a fact, so that only
// what a person said becomes a memory without review.
//
// A memory written by a person (the CLI) is theirs. Anything else, what an
// agent writes through MCP or the memory tool and what an extractor takes
// from a session, counts as stated only when it is grounded in the
// person's own words of that session ([Said.Check]): its values (numbers,
// hosts, ports, paths, versions, identifiers, dates) as they wrote them,
// and most of its other words. An instruction to run a command, fetch a
// URL, pipe a download into a shell or change a permission or setting
// ([Instruction]) is stated only when one of the person's statements gives
// it in the imperative and grounds it on its own; an option the person
// picked among those the agent offered ([Statement.Chosen]) gives none,
// and the agent's words that came with it ([Statement.Context]: the
// descriptions of the options picked) ground words, never values.
//
// The person's words of a session come from the transcript (the digest's
// prompts and answers) or, for the MCP server, from [Prompts]: the
// record the user-prompt-submit hook keeps of each session's prompts in
// the state folder, redacted, bounded ([MaxSessionBytes]) and pruned by
// age ([MaxAge]).
//
// Non-goals: telling a person's paraphrase of tool output from their own
// claim (what they typed is theirs), and grounding a rewording whose
// values differ (it is a draft).
//
// A [Said] is safe for concurrent use; [Prompts] is safe across processes
// as long as one session's prompts are recorded one at a time, as hooks do.
package provenance
