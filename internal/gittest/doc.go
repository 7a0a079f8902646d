// Package gittest makes git histories for tests: memory files a teammate
// committed in another clone and this clone pulled, which is what package
// vault takes as a teammate's word (a commit made in the clone itself is
// not). It is imported by tests only; every function runs the git on PATH.
package gittest
