// Package lazyregexp is a regexp compiled on first use, as the Go command's
// own internal/lazyregexp does. mnemo is one binary whose hooks run on every
// prompt: a pattern compiled at start-up is paid by every process, whether
// or not it reads a date or a path.
package lazyregexp
