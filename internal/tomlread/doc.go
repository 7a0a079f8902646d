// Package tomlread reads what mnemo needs of a TOML document (Codex's
// config.toml): table headers, as key paths, and the string values of the
// document with their whole key paths. It reads TOML 1.0, and 1.1's \e
// and \xHH escapes, as a lenient reader would: what it cannot read ends
// the reading with an error naming the line, and what was read before is
// kept. Numbers, booleans and dates are skipped, not checked, and so are
// the values of arrays.
//
// Non-goals: writing TOML, checking a document (a key defined twice, a
// table opened twice), and giving values other than strings.
package tomlread
