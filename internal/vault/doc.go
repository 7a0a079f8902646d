// Package vault reads and writes a folder of memory files and its MEMORY.md
// index. Writes are atomic (a temp file beside the target, fsync, rename,
// fsync of the folder) and serialized across processes by [Vault.Lock], so
// hooks, the MCP server and the CLI can write one vault at once. The files
// are the truth; package index only mirrors them. A Vault is safe for
// concurrent use.
package vault
