// Package e2e holds the end-to-end tests that drive the real clients,
// headless, against scripted fakes of their model APIs on loopback
// (package fakeapi): Claude Code (the Anthropic Messages API), the Codex
// CLI (`codex exec`, the OpenAI Responses API) and the Gemini CLI
// (`gemini -p`, the Gemini API). The hooks fire with their real payloads,
// the context mnemo injects reaches the model's requests, the model's
// calls of mnemo's MCP tools come back with their results, and each client
// writes its real session files for the capture path.
//
// The tests find the clients through $MNEMO_E2E_CLAUDE, $MNEMO_E2E_CODEX
// and $MNEMO_E2E_GEMINI, else in ~/.cache/mnemo-e2e/{claude,codex,gemini}
// (where .ci/run installs them, pinned), and skip, saying why, when one is
// absent.
//
// The Claude Code and Codex tests run in parallel (-parallel, 2 on CI):
// each has its own home, project and fake model, and most of their time
// is the clients starting and the workers' idle exits. TestLoadAndFaults
// and TestManyWriters do not: they run first, alone, their load being what
// they test; nor do the Gemini CLI's: TestGeminiResume's resume, whose
// clock an hour ahead makes the registry lock of Gemini CLI (proper-lockfile)
// look stale, failed with it found released ('Lock is already released',
// ERELEASED) at load 12-17, in parallel and alone. Every hook runs at ten
// times its deadline: the tests check what hooks give, not how fast on a
// loaded machine (at load 17 Claude Code's session-end hook gave up at 1 s
// before it had read its input, and TestCaptureLoopHeuristic waited in
// vain for the capture).
//
// TestCommittedSettingsEnv needs no client: it runs the SessionEnd
// hook with the environment Claude Code builds from the settings files of
// a project whose committed .claude/settings.json points mnemo's providers
// at a recording server, and checks that the server gets nothing while the
// user's own settings still reach it.
//
// TestManyWriters needs no client: it runs every kind of mnemo writer at
// once (two MCP servers, CLI adds and edits, ingest) against the built
// binary and checks that nothing reported written was lost or merged.
// TestLoadAndFaults (about a minute; MNEMO_E2E_LOAD sets how long the load
// lasts, -short skips it) adds four agent sessions at a time through their
// hooks, a worker, and 50 SIGKILLs of the worker and the MCP servers, then
// checks doctor --deep and the hooks' deadlines.
package e2e
