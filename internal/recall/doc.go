// Package recall ranks memories for a query and packs them into a token
// budget. Everything the agent sees from mnemo passes through it: the
// SessionStart brief, per-prompt injection, the MCP recall tool and
// `mnemo recall`.
//
// A query's text is cut into terms (lower-cased words, stop words dropped,
// at most [MaxTerms]), so no user text ever reaches FTS5 as syntax. Each
// source of evidence gives a ranked list: BM25 over the stemmed word index
// (description weighted highest; a memory's links' descriptions count at a
// low weight, so neighbours lend it context), the trigram index for identifiers and
// text without spaces, and memories anchored to the files the query names.
// The lists are fused (by normalised score, or by reciprocal rank). With a
// sentence encoder ([Config.Semantic]) and vectors in the index, recall
// by meaning joins last: the memories nearest the query's meaning become
// candidates when near enough, and every candidate gains its cosine
// similarity; it only adds, so text the model cannot read keeps the score
// its words give it.
// The fused score is multiplied by boosts for type, confidence, recency,
// recall history and the dates the query names (a memory written on that
// day, in that month or year); suspect and superseded memories are pushed
// down; one hop of [[links]] brings neighbours in at a discount. Ties break
// by name. Each result says why it ranked where it did.
//
// [Engine.Recall] embeds the query on a goroutine of its own while it
// searches the words, and waits for it before returning; a [QueryCache]
// keeps the vectors of recent queries for a long-lived process. An
// [Engine] and a QueryCache are safe for concurrent use.
package recall
