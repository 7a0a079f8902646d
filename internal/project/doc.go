// Package project finds where a repository's memories live and where mnemo
// keeps its derived state for them: the git root, the project vault
// (.memory/ there, or Claude Code's private per-project memory folder), the
// user vault (~/.mnemo/user) and the state folder (~/.mnemo/state/<key>).
// MNEMO_HOME overrides ~/.mnemo and CLAUDE_CONFIG_DIR ~/.claude, read from
// the [Env] the caller passes, never from the process.
package project
