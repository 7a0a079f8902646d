// Package sqlitefile is what every database file mnemo owns has in
// common: one escaping of the path for modernc.org/sqlite, so that a path
// holding '?', '#' or '%' names the file it says and nothing else; one
// test of whether an error means the file is damaged; one way to set a
// damaged file aside (kept for inspection, named by the time) so that its
// owner can start it anew; one retry of a statement after its owner
// repaired the file ([Retried]); connections that follow the file at
// their path when another is put there ([Follow]), rather than go on
// with the old one; and a WAL that a connection to a replaced file never
// removes from under the new one ([KeepWAL]).
package sqlitefile
