// Package agent wires mnemo into coding agents' configuration files:
// Claude Code (hooks in settings.json, the MCP server in .mcp.json or
// ~/.claude.json, autoMemoryDirectory in settings.local.json), Codex,
// Gemini CLI and Cursor. Installing is idempotent, keeps every other key
// and hook as it was (key order included), and leaves a .bak of each file
// it changes; uninstalling removes exactly what installing added.
package agent
