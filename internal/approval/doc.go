// Package approval is mnemo's auto-approval policy: which candidate facts
// may become active memories without review, by the evidence they rest on
// and the confidence they carry. It is the one definition the extraction
// prompt, the reply validator and consolidation read.
//
// What the person stated (their typed prompts, their answers to the agent's
// questions, the feedback they gave when rejecting a tool call) may be
// active at [StatedAt]. What a later successful command of the session
// confirmed may be active at [ConfirmedAt], when it gives no instruction to
// pipe a download into a shell, fetch a URL or change a permission.
// Everything else (inferred by an extractor, resting on tool output) waits
// for review; an inferred fact's confidence is capped at [InferredCap],
// below both bars.
//
// The package holds constants and pure functions only; it is safe for
// concurrent use.
package approval
