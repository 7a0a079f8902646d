// Package staleness decides how far a memory can be trusted over time: it
// anchors a memory to the content of the files it describes and the commit
// it was written at, and holds the expiry policy that sets review_by.
package staleness
