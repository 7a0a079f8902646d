// Package bench measures mnemo's recall: `mnemo bench scale` times the
// index and the ranking on a synthetic vault of N memories, and `mnemo bench
// locomo` scores retrieval on the LoCoMo long-conversation benchmark. Both
// build real vaults of memory files in a temporary folder and go through
// the same index and recall engine as the product; nothing here ranks on
// its own.
//
// In the LoCoMo run each dialog turn becomes one memory file: its text as
// the description (cut to the format's 150 characters) and, whole, as the
// body with the speaker's name and the caption of a shared image; the
// speaker as a tag; the session date as created and updated; and [[links]]
// to the turns before and after it in the same session. Each question is
// asked with the default ranking and the conversation's last date as now.
//
// The synthetic vault draws words from a Zipf law over an engineering
// vocabulary that grows with N, links memories to each other and anchors
// some to files; its queries are drawn the same way. Timings are wall time
// and CPU time: on a shared machine the first also counts the wait for a core.
package bench
