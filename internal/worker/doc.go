// Package worker is the background process that turns captured sessions
// into memories: it leases jobs from the queue, reads each session's
// transcript from where the previous job stopped, digests and redacts it,
// extracts candidate facts, and consolidates them into the vaults and the
// inbox. One worker runs per state folder (a file lock says which); it
// exits when the queue has been empty for a while.
package worker
