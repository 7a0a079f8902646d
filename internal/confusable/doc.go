// Package confusable knows the letters of other scripts that are drawn
// like Latin ones (Cyrillic о, Greek ο for o), so that text written with
// them to pass for a word is judged, or escaped, as that word. It covers
// the look-alikes of Cyrillic and Greek, not every confusable Unicode
// lists. Its functions are pure and safe for concurrent use.
package confusable
