// Package stamp keeps, in a file, the time a periodic task last ran, so
// that a process that starts often (the worker, after every session) does
// the task at most once a period: the queue's prune of finished jobs, the
// records' prune of what no reader needs.
package stamp
