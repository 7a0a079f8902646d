// Package queue is the durable job queue between the capture hooks and the
// background worker: queue.db in a project's state folder. A hook appends a
// job (a session's transcript to process) in one short transaction; the
// worker leases jobs, processes each from the byte offset where the
// session's previous job stopped, and marks it done, or failed to be
// retried with backoff, or dead after too many attempts. The worker renews
// its lease while a job runs, so a short lease ([DefaultLease]) runs out
// only when the worker died, and its job is leased again within seconds.
//
// Unlike index.db, queue.db is not a cache: it holds work not yet done, so
// its schema migrates forward and is never dropped. A queue.db found
// damaged on open is set aside (kept, named by the time), a new one is
// made with the jobs not done it still yields, and what it held that
// could not be read is named for the person to ingest again ([Damage]);
// so is one whose damage a statement meets later, read or write, which
// is then made again in the new file ([sqlitefile.Retried]). Every
// statement runs in a transaction that checks, inside it, that its
// connection's file is the one at the path: a handle opened before
// another process's repair reads and writes the new file, never the one
// set aside. A Queue is safe for concurrent use by several processes.
package queue
