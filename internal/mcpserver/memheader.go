package mcpserver

import (
	"strings"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/staleness"
)

// memoryFromText makes the memory a create command writes. Text without a
// header gets one: the name from the path, a description from the first
// line, type project, source agent, created and updated now. Text with a
// header keeps it, with what is missing filled in the same way.
func (s *Server) memoryFromText(mp memPath, name, text string) (*memory.Memory, error) {
	now := s.cfg.Now()
	m := memory.New(memory.Header{}, memory.AbsoluteDates(text, now))
	if strings.HasPrefix(text, "---") {
		parsed, err := memory.Parse(mp.file, []byte(text))
		if err != nil {
			return nil, toolErrorf("The file %s was not created: its header does not parse: %v", mp.path, err)
		}
		m = parsed
	}
	switch m.Name {
	case "":
		m.Name = name
	case name:
	default:
		return nil, toolErrorf("The file %s was not created: its header names it %q; a memory's name is its file name", mp.path, m.Name)
	}
	if strings.TrimSpace(m.Description) == "" {
		m.Description = describe(m.Body, name)
	}
	if m.Type == "" {
		m.Type = memory.TypeProject
	}
	if m.Source == "" {
		m.Source = "agent"
	}
	if m.Created.IsZero() {
		m.Created = now
	}
	if m.Updated.IsZero() {
		m.Updated = now
	}
	if m.ReviewBy.IsZero() {
		m.ReviewBy = staleness.ReviewBy(m.Type, now)
	}
	if err := m.Validate(mp.file); err != nil {
		return nil, toolErrorf("The file %s was not created: %v", mp.path, err)
	}
	return m, nil
}

// describe makes a description from a body's first line of text, cut to
// the description limit at a word; a body with no text is described by
// its name.
func describe(body, name string) string {
	for line := range strings.Lines(body) {
		line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "#>-*+ "))
		if line == "" || strings.HasPrefix(line, "```") {
			continue
		}
		if utf8.RuneCountInString(line) <= memory.MaxDescriptionLen {
			return line
		}
		r := []rune(line)[:memory.MaxDescriptionLen-1]
		if i := strings.LastIndexByte(string(r), ' '); i > memory.MaxDescriptionLen/2 {
			return strings.TrimRight(string(r)[:i], " ,;:") + "…"
		}
		return string(r) + "…"
	}
	return strings.ReplaceAll(name, "-", " ")
}
