// Package envtrust tells which variables of a process's environment a
// repository put there, so that a repository anyone can clone never
// chooses where mnemo sends a session, with whose credentials, or where
// it keeps its state.
//
// Agents apply files of the project they run in to the environment of the
// hooks and MCP servers they start: Claude Code the "env" of
// .claude/settings.json and .claude/settings.local.json (and of an MCP
// server's entry in .mcp.json), Gemini CLI a project's .gemini/.env or
// .env and the "env" of its .gemini/settings.json hooks and servers, Codex
// a trusted project's .codex/config.toml: its MCP servers' "env" (mnemo
// init registers mnemo's server there) and, for the commands its shell
// tool runs, what its shell_environment_policy sets. A file the
// repository tracks in git is the repository's, whoever cloned it; an
// untracked one, and every file outside the repository (the user's
// ~/.claude/settings.json, ~/.codex/config.toml), is the user's. Codex
// applies nothing of a project's files to its hooks' environment (checked
// with Codex 0.171.0), so a Codex hook has nothing to check.
//
// Only the variables that steer mnemo count ([Steers]): the extractor,
// the providers' endpoints and credentials, proxies and certificates, the
// programs mnemo starts, its folders. The others (a team's
// BASH_DEFAULT_TIMEOUT_MS) are the agent's business and cost nothing.
//
// [Check] returns those whose value in the environment is one a
// tracked file sets (or may set, when the agent expands $VAR in it): the
// value as it is in the index, read through git, so that a local edit of a
// tracked file is the user's. A value the user's own files set too is the
// user's choice as well and is not returned. [Declared] lists what the
// tracked files set, whatever the environment holds, for mnemo doctor.
//
// Only the files are read until a value of the environment is found in
// one: then git is asked, with an environment from which the variables a
// project file proposes, and every GIT_* variable, are removed. When git
// cannot answer, the file is taken as tracked: in doubt, a value is the
// repository's.
package envtrust
