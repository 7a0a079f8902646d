package mcpserver

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxResultChars bounds what one tool result holds. Claude Code warns past
// 10,000 tokens of tool output; at mnemo's estimate of four characters a
// token this is 6,000, leaving room for JSON escaping.
const maxResultChars = 24_000

// staleNote closes every answer that hands memories to the model.
const staleNote = "Each memory is a dated claim, not a truth: check it against the code before acting on it."

// text returns a result whose content is one text block. A handler
// returning it with a typed output gets that output as structuredContent
// beside the text.
func text(format string, args ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(format, args...)}}}
}

// pick returns the first of the values that is not empty: a parameter and
// the aliases models reach for, in order of precedence.
func pick(values ...string) string {
	for _, v := range values {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

// pickInt returns the first of the values that is not zero.
func pickInt(values ...int) int {
	for _, v := range values {
		if v != 0 {
			return v
		}
	}
	return 0
}

// offset decodes a cursor: the position of the next item. Cursors are
// opaque to clients; an empty one starts at the beginning.
func offset(cursor string) (int, error) {
	if cursor == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(cursor)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("cursor %q is not one this server gave: pass the next_cursor of the previous answer", cursor)
	}
	return n, nil
}

// cursorAt encodes the position of the next item.
func cursorAt(n int) string { return strconv.Itoa(n) }

// cut returns s cut to at most n bytes, on a character boundary and at a
// line end when one is near, and whether it cut.
func cut(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	head := s[:n]
	if i := strings.LastIndexByte(head, '\n'); i > n/2 {
		head = head[:i+1]
	}
	return head, true
}

// clip returns s whole when it is at most n bytes, else its start and its
// end around an ellipsis, n bytes in all, cut on character boundaries: a
// message keeps what it begins with and the hint it ends with.
func clip(s string, n int) string {
	const gap = " … "
	if len(s) <= n {
		return s
	}
	head, tail := (n-len(gap))*3/4, (n-len(gap))/4
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	from := len(s) - tail
	for from < len(s) && !utf8.RuneStart(s[from]) {
		from++
	}
	return s[:head] + gap + s[from:]
}
