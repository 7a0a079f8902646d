// Package agent wires mnemo into coding agents' configuration files:
// Claude Code (hooks in settings.json, the MCP server in .mcp.json or
// ~/.claude.json, autoMemoryDirectory in settings.local.json), Codex,
// Gemini CLI and Cursor. Installing is idempotent, keeps every other key
// and hook as it was (key order included), and keeps the previous text of
// each file it changes in a backups folder ([Options.BackupDir], the state
// folder's backups/, never beside the file); uninstalling removes exactly
// what installing added.
package agent
