// Package e2e holds the end-to-end tests that drive the real Claude Code
// CLI, headless, against a scripted fake of the Anthropic Messages API on
// loopback: the hooks fire with their real payloads, the context mnemo
// injects reaches the model's requests, and Claude Code writes a real
// transcript for the capture path.
//
// The tests find the claude binary through $MNEMO_E2E_CLAUDE, else in
// ~/.cache/mnemo-e2e/claude (where .ci/run installs it), and skip, saying
// why, when it is absent.
//
// TestManyWriters needs no client: it runs every kind of mnemo writer at
// once (two MCP servers, CLI adds and edits, ingest) against the built
// binary and checks that nothing reported written was lost or merged.
package e2e
