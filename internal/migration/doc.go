// Package migration brings the schema of an SQLite database that is not a
// cache (queue.db, history.db) up to date from numbered SQL files, as
// benbjohnson/wtf's sqlite package does: each file is applied once, in
// name order, in one transaction that also records its name in the
// database's migrations table. Files are never edited once released; a
// change is a new file.
//
// The functions are safe for concurrent use, also by several processes:
// a file is applied under the write lock, after checking again that no
// other process applied it meanwhile.
package migration
