// Package worker is the background process that turns captured sessions
// into memories: it leases jobs from the queue, reads each session's
// transcript from where the previous job stopped, with its sub-agents'
// transcripts (each from where it was left), digests and redacts them
// together, extracts candidate facts, and consolidates them into the vaults
// and the inbox. [Related] finds the memories a model provider's request
// names. Each fact is checked against the session before consolidation:
// stated when the person's own words ground it, confirmed only when it
// names a command whose last run succeeded cleanly and states a fact
// rather than an instruction. A job the extractor skips on purpose (too
// little work, a budget spent) is done with its reason recorded, and its
// session is read again whole by its next job; a session too short for a
// model still keeps what the person asked to remember.
//
// One worker runs per state folder (a file lock says which); it renews
// the lease of the job in hand while it runs, and exits when the queue has
// been empty for a while, when its context ends (SIGTERM, SIGINT: the job
// in hand is given back), or when its state folder is deleted.
package worker
