// Package mcpserver is mnemo's Model Context Protocol server: the tools an
// agent calls to recall, read, write, update, verify and forget memories
// itself, the memory tool with the command set of Anthropic's memory tool
// (view, create, str_replace, insert, delete, rename under /memories)
// mapped onto the project vault, and the resources memory://index
// (MEMORY.md) and memory://<name>. It serves one client over stdio, on the
// official Go SDK; stdout carries only protocol messages.
//
// Every tool answers with text and, except the memory tool, with
// structuredContent, each kept under Claude Code's output limit; long
// answers are cut into pages with a cursor. Claude Code hands the model the
// structuredContent when a result has one, so that is written to be read;
// the memory tool returns text only, to keep the result strings of
// Anthropic's tool exact.
//
// Writes go through the vault's lock, so the server, the hooks and the
// CLI can write one vault at once, and the search index is synced after
// each write. The index is opened on first use and re-synced only when a
// vault folder reports a change (inotify on Linux, which sees edits in
// place too; elsewhere, a folder stamp and a periodic full sync), so a
// recall costs no directory walk. After [DefaultIdleRelease] unused the
// index is closed, to give its memory back, and reopened on the next call.
// Recall statistics are written after the answer, batched.
//
// forget never destroys a memory. With superseded_by it marks the memory
// superseded (it stays in the vault, ranked lower, and leaves MEMORY.md);
// without it the file moves out of the vault to the state folder's
// forgotten/ folder, with the reason recorded in forgotten.jsonl and the
// state log, whence a person can move it back. The memory tool's delete
// does the same. Only a person's 'mnemo rm' or 'mnemo gc --apply' deletes.
//
// Registering the server by hand, for Claude Code:
//
//	claude mcp add --scope project mnemo -- mnemo mcp
//
// or in .mcp.json: {"mcpServers": {"mnemo": {"type": "stdio", "command":
// "/abs/path/mnemo", "args": ["mcp"]}}}. 'mnemo init' writes that entry.
//
// A Server is safe for concurrent use by the SDK's request handlers.
package mcpserver
