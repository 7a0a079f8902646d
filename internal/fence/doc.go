// Package fence marks text as data, not instructions: it puts text an agent
// reads (memories injected by the hooks, a session's digest sent to a
// model) between a pair of tags, <name> and </name>, and escapes the text so
// that nothing in it can close the fence early or open another one.
//
// What counts as a tag is wider than what a parser would accept, because
// the reader is a language model: any case, spaces or a slash between '<'
// and the name, '<' written as an HTML entity (&lt;, &#60;, &#x3c;, also
// double-encoded) or as a full-width or angle-quote look-alike, invisible
// format characters (zero-width spaces, soft hyphens) and full-width
// letters inside the name, and any separator or none between its words
// (within 1 KiB of the '<': past that, padding reads as no tag to anyone).
// [Tag.Escape] turns the '<' of each such tag into '[', which no reader
// takes for a tag. Escaping is idempotent, and escaped text holds no tag
// ([Tag.Find] finds none); FuzzEscape checks both.
//
// A [Tag] is immutable and safe for concurrent use.
package fence
