// Package consolidate merges candidate facts (from the extractor, the MCP
// server or a person) into the vaults and the review inbox, without ever
// multiplying a memory, deleting one, or losing a distinct fact.
//
// Two statements are the same fact only when the values that tell facts
// apart agree: numbers, versions, ports, hosts, URLs, paths, identifiers,
// names, environments, weekdays, months and dates (values.go). Word overlap
// (and, when [Consolidator.Semantic] is set, a similarity of meaning) only
// says whether two statements are about one topic. A candidate set against
// its closest memory or draft is
//
//   - the same fact ([Duplicate]): the same values and nearly the same
//     words. Its provenance (source, time, confidence, why) is appended to
//     provenance.jsonl in the state folder ([Sighting]); the committed file
//     is not rewritten.
//   - an extension ([Extended]): every value and nearly every word of the
//     memory, and more detail. It may update the memory, through
//     [vault.Vault.Update], when it could have been written to the vault
//     on its own (a person stated it, its confidence clears the auto-approve
//     bar, and it is not from tool output); otherwise it is a proposal
//     ([Proposed]).
//   - a contradiction ([Contradiction]): it disagrees with the memory on a
//     claim: one denies what the other affirms ("use pnpm, not npm"
//     against "use npm, not pnpm"), or both give one key different values
//     ("the port for hk3 is 93" against "… is 95"). The word "not" alone
//     decides nothing. It becomes a draft whose body names [[the memory]],
//     and the link is recorded in links.jsonl ([LinkContradicts]) so the
//     memory's side can show it; the memory is kept as it is.
//   - anything else is a new memory: to the vault when a person stated it
//     ([Fact.Stated]), its confidence clears the auto-approve bar and it
//     did not come from tool output, else to the inbox as a draft. A taken name gets a -2, -3… suffix.
//
// An extractor may say how a fact stands to a memory it was shown
// ([Fact.Relation]): the same, an update, a contradiction. That is a hint
// checked against the rules above (relation.go): "same" makes a duplicate
// of a paraphrase only when the values agree and the two are as close as
// a rejected fact's paraphrase must be, an update that changes more
// than an extension may is proposed, a contradiction is a linked draft;
// the same fact or a contradiction found by the rules elsewhere stands.
// What may go to a vault without review is package approval's policy.
//
// No automatic step changes what an active vault memory claims except an
// extension as above. A draft is extended in place only by what the
// person stated; any other extension of it is a draft of its own, so that
// what review shows (the draft's reasons and excerpt) is what it holds. Any other change is a draft proposing it: a draft
// holding the memory as it would be, whose link in links.jsonl is
// [LinkChanges] and names the memory ([Inbox.LinkOf]); review can diff the
// two, and approving the draft changes the memory instead of adding one
// ([Inbox.Approve]).
//
// Drafts live in the state folder's inbox/, never in the vault, so they
// never reach a commit or MEMORY.md unreviewed. Each draft consolidation writes is
// recorded in provenance.jsonl with why it is a draft ([Reason]) and a
// redacted excerpt of what it was taken from ([Inbox.Drafting]), for
// review; [Inbox.Approve] and [Inbox.Reject] take the project vault's
// lock and act on the draft as it is then. A rejected draft is
// remembered in rejected.jsonl, and a candidate that says it again (in
// other words, as long as it names the same values) is not proposed again.
// A draft that waited past its time and is removed ([Inbox.Expire], 'mnemo
// gc --apply') is no rejection, since no one judged it: it is kept in the
// state folder's forgotten/, and the fact it held may be drafted again, or
// kept when a person states it.
// A rejection is this person's own when it is in the state folder's file;
// the team's file, committed, holds everyone's ([Rejection.Own]). A
// teammate's rejection is evidence, not a veto over what this person
// stated after it: such a fact is a draft whose reason names the
// rejection ([ReasonTeamRejected]), never dropped without a word.
//
// The state records are JSON lines, appended to one write per record
// under a lock held shared, so processes can add to them at once; a
// draft's link ends with a "closed" record when the draft is approved or
// rejected. What no reader needs any more (the provenance of names in no
// vault, inbox or forgotten/, links closed a month ago) is pruned by
// [Inbox.PruneRecords], which holds the lock exclusive and rewrites the
// file atomically: 'mnemo gc --apply', and the worker once a day.
package consolidate
