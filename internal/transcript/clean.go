package transcript

import "strings"

// CleanPrompt returns the text a person typed, given the text of a user
// message: injected <system-reminder> blocks, local command output and
// caveats are removed; a slash command's wrapper
// (<command-name>/x</command-name> <command-args>y</command-args>) becomes
// "/x y"; a shell escape (<bash-input>ls</bash-input>) becomes "!ls".
// Runs of blank lines shrink to one and the result is trimmed.
func CleanPrompt(s string) string {
	if strings.IndexByte(s, '<') >= 0 {
		// Wrappers whose content is never what a person typed: context
		// Claude Code injects, output of local commands, hook output.
		for _, tag := range [...]string{"system-reminder", "local-command-stdout", "local-command-stderr",
			"local-command-caveat", "bash-stdout", "bash-stderr", "user-prompt-submit-hook", "command-message"} {
			s = replaceTag(s, tag, func(string) string { return "" })
		}
		s = slashCommand(s)
		s = replaceTag(s, "bash-input", func(in string) string { return "!" + strings.TrimSpace(in) })
	}
	return tidy(s)
}

// slashCommand rewrites a command-name/command-args wrapper as the command
// line a person typed.
func slashCommand(s string) string {
	var name, args string
	s = replaceTag(s, "command-name", func(in string) string { name = strings.TrimSpace(in); return "\x00" })
	if name == "" {
		return strings.ReplaceAll(s, "\x00", "")
	}
	s = replaceTag(s, "command-args", func(in string) string { args = strings.TrimSpace(in); return "" })
	cmd := name
	if args != "" {
		cmd += " " + args
	}
	if !strings.HasPrefix(cmd, "/") {
		cmd = "/" + cmd
	}
	s = strings.Replace(s, "\x00", cmd, 1)
	return strings.ReplaceAll(s, "\x00", "")
}

// replaceTag replaces every <tag>…</tag> span of s (the tag name matched
// case-sensitively, as Claude Code writes it) by f of its content. An opening
// tag without its closing tag runs to the end of s.
func replaceTag(s, tag string, f func(string) string) string {
	open, close := "<"+tag+">", "</"+tag+">"
	if !strings.Contains(s, open) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, open)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		rest := s[i+len(open):]
		j := strings.Index(rest, close)
		if j < 0 {
			b.WriteString(f(rest))
			return b.String()
		}
		b.WriteString(f(rest[:j]))
		s = rest[j+len(close):]
	}
}

// tidy trims trailing spaces from every line, shrinks runs of blank lines to
// one and trims the whole.
func tidy(s string) string {
	s = strings.TrimSpace(s)
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	b.Grow(len(s))
	blank := false
	for line := range strings.SplitSeq(s, "\n") {
		line = strings.TrimRight(line, " \t\r")
		if line == "" {
			blank = true
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
			if blank {
				b.WriteByte('\n')
			}
		}
		blank = false
		b.WriteString(line)
	}
	return b.String()
}

// isInterruption reports whether s is the marker Claude Code writes when
// the person stops a response.
func isInterruption(s string) bool {
	return strings.HasPrefix(s, "[Request interrupted by user")
}
