// Package consolidate merges candidate facts (from the extractor, the MCP
// server or a person) into the vaults and the review inbox, without ever
// multiplying a memory or deleting one:
//
//   - a duplicate of a memory updates its provenance only;
//   - a refinement updates the existing file, keeping its oldest created;
//   - a contradiction is written as a new draft linked to the memory it
//     contradicts, and both are surfaced for review;
//   - anything else is added: to the vault when its confidence clears the
//     auto-approve bar and it did not come from tool output, else to the
//     inbox as a draft.
//
// Drafts live in the state folder's inbox/, never in the vault, so they
// never reach a commit or MEMORY.md unreviewed. A rejected draft is
// remembered, and a candidate like it is not proposed again.
package consolidate
