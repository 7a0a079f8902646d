// Package queue is the durable job queue between the capture hooks and the
// background worker: queue.db in a project's state folder. A hook appends a
// job (a session's transcript to process) in one short transaction; the
// worker leases jobs, processes each from the byte offset where the
// session's previous job stopped, and marks it done, or failed to be
// retried with backoff, or dead after too many attempts. A job whose
// worker died is leased again when its lease expires.
//
// Unlike index.db, queue.db is not a cache: it holds work not yet done, so
// its schema migrates forward and is never dropped. A Queue is safe for
// concurrent use by several processes.
package queue
