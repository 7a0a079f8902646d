// Package staleness decides how far a memory can be trusted over time: it
// anchors a memory to the content of the files it describes and the commit
// it was written at, and holds the expiry policy that sets review_by.
//
// A memory file arrives through git from anyone who can land a commit, so
// what it names is untrusted. Files are reached only inside the repository
// (through [os.Root], so a symlink that leads out is not followed; see
// [ErrOutside]), and git gets a memory's commit, paths and identifiers only
// after --end-of-options, -e or --, once they have been checked as an
// object name and clean relative paths.
package staleness
