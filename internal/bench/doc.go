// Package bench measures mnemo's recall: `mnemo bench scale` times the
// index and the ranking on a synthetic vault of N memories, and `mnemo bench
// locomo` scores retrieval on the LoCoMo long-conversation benchmark. Both
// build real vaults of memory files in a temporary folder and go through
// the same index and recall engine as the product; nothing here ranks on
// its own.
package bench
