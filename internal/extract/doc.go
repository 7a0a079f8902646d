// Package extract turns a session digest into candidate memories: durable
// facts worth having in a later session (decisions with their rationale,
// conventions, dead ends, unresolved TODOs, user preferences and
// corrections, references), or none when nothing durable happened.
//
// An [Extractor] is made by [New] from a [Config]. Four providers exist:
//
//   - "anthropic": the Messages API over net/http (claude-haiku-4-5,
//     temperature 0, not streamed);
//   - "claude-cli": the user's own claude binary run headless, isolated so
//     that no hook, MCP server or transcript of the child session exists;
//   - "openai": any OpenAI-compatible chat completions endpoint (Ollama,
//     vLLM, LM Studio, OpenRouter), over net/http too;
//   - "heuristic": offline rules over the digest's structure: explicit
//     statements in the user's prompts, corrections, answers to the agent's
//     questions and feedback given when rejecting a call, problems the user
//     reported that stayed open, commands abandoned for another that
//     worked or run again unattended, checks that fail to the end, TODOs
//     left in the final message.
//
// "auto" takes the first that is set up, in that order, ending with the
// heuristic one.
//
// The three model providers share one path: the digest is redacted again
// at the boundary (redaction is idempotent, so a digest already redacted
// by package transcript loses nothing), split into chunks under
// [Config.ChunkTokens], sent with the embedded prompt, and the reply is
// validated strictly (a JSON array, known keys only, types, lengths, enum
// values, paths that exist under the session's working directory). An
// invalid reply gets one repair request that lists the problems; a second
// invalid reply is an [*OutputError] carrying the raw text. A refusal is
// [ErrRefused]. Rate limits and overloads are retried as [Config] says; a
// 429 without retry-after is not retried ([ErrRateLimited]); other HTTP
// failures are an [*APIError].
//
// A cost guard runs before every model call. A digest is sent for the work
// it shows, not for its count of prompts: it is sent when the person spoke
// [Config.MinUserTurns] times (prompts, answers and rejections alike), or
// answered or rejected anything, or when the session (its sub-agents
// included) edited a file, failed at something or made five tool calls;
// otherwise it is not sent ([ErrTooShort], saying what was counted). Each
// call must fit, by its estimate (input plus the output it allows), in
// what is left of the per-session and per-day token budgets, the day's
// spend kept by a [Ledger] the caller provides. Chunks are sent from the
// last to the first, so that a budget that runs out costs the session's
// beginning, not its end (where the fixes, the failures and the work left
// are). When the first call does not fit the extraction ends with
// [ErrBudget]; when a later chunk does not, the chunks read so far give
// the candidates and [Usage.Skipped] counts the rest. [Requests] shows
// what would be sent. What each call spent is recorded in the Ledger as soon as it
// returns. The heuristic provider spends nothing and has no guard.
//
// A request names the memories and drafts the session relates to, as
// [Config.Related] gives them, fenced; each candidate of the reply says
// whether it is new, the same as one of them, an update or a
// contradiction ([Candidate.Relation]), and a name the request did not hold
// is taken as new. A candidate also says what it rests on
// ([Candidate.Evidence]); the bars the prompt states and the cap on an
// inferred fact's confidence are package approval's, the policy that
// consolidation applies. A type its category contradicts is set from the
// category (a user-typed decision is a project fact). What validation
// fixed is logged as notes; a reply with no valid item is logged raw,
// redacted and bounded.
//
// Every text field of every candidate is redacted before it is returned.
// An Extractor is safe for concurrent use, though the per-day budget is
// checked and then recorded, not reserved: two concurrent extractions can
// together overshoot it by one call each.
package extract
