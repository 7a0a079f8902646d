// Package web is mnemo's local review page, `mnemo ui`: the inbox of
// drafts, the memories, what is stale, the link graph and the worker's
// activity, served by the binary on loopback.
//
// It is a thin face over the packages that own the logic: drafts are
// listed, approved and rejected through [consolidate.Inbox] (with the
// reasons and excerpt consolidation recorded), every write to a vault
// goes through [vault.Vault] (the one door, where secrets and validation
// are checked: a merge of near duplicates is [vault.Vault.Merge], found by
// [consolidate.Text.SameFact]), search is [recall], the Stale page's fixes
// are a [Checker] (verify on the repository, supplied by the caller), and
// activity is [queue].
//
// The page is served only to the person at this machine: the listener is
// a loopback address, every request carries a random token (from the URL
// printed at start, then a SameSite=Strict cookie), every change carries
// a CSRF token and a same-origin Origin, the Host must be the listener's
// own (no DNS rebinding), and a strict Content-Security-Policy allows
// only the embedded stylesheet and script. Nothing is read but the vaults
// and the state folder, by memory name, never by path.
package web
