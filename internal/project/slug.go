package project

import (
	"strconv"
	"unicode/utf16"
)

// maxSlugLen is where Claude Code cuts a long project slug and adds a hash.
const maxSlugLen = 200

// ClaudeSlug returns the folder name Claude Code uses under
// ~/.claude/projects/ for a working directory: every character outside
// [A-Za-z0-9] becomes '-'; a slug longer than 200 characters is cut to 200
// and followed by '-' and the base-36 absolute value of the Java-style
// 32-bit hash of the path's UTF-16 units.
func ClaudeSlug(path string) string {
	units := utf16.Encode([]rune(path))
	slug := make([]byte, len(units))
	var h int32
	for i, u := range units {
		h = h*31 + int32(u)
		if u < 128 && isAlnum(byte(u)) {
			slug[i] = byte(u)
		} else {
			slug[i] = '-'
		}
	}
	if len(slug) <= maxSlugLen {
		return string(slug)
	}
	abs := int64(h)
	if abs < 0 {
		abs = -abs
	}
	return string(slug[:maxSlugLen]) + "-" + strconv.FormatInt(abs, 36)
}
