// Package fakeapi is a scripted fake of the Anthropic Messages API (and of
// the OpenAI Responses API the Codex CLI calls, and the Gemini API the
// Gemini CLI calls) for tests: it answers streaming requests (as Claude
// Code sends them) with server-sent events and plain requests (as mnemo's
// own provider sends them) with JSON, from a queue of replies, and keeps
// every request body.
// See shared/reference/claude-code-e2e.md for the wire format.
package fakeapi
