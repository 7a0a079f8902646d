// Package edit saves a person's edit of a whole memory file: the one
// pipeline behind 'mnemo edit', the review page's editor and the edit of a
// draft before its approval (CLI and review page), so that all check an
// edit the same way; [Settle] is also what an agent's update through MCP
// is given. The edited text is parsed and validated as
// a reader would, its relative dates are made absolute and its updated
// date set, a change of type gets that type's review date, and it is
// written through [vault.Vault.Update], which refuses secrets, a changed
// name and a file no reader would open. It holds no state; its functions
// are safe for concurrent use as the vault is.
package edit
