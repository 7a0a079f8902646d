package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/provenance"
)

// memCreate creates a memory file; one without a header gets one.
func (s *Server) memCreate(ctx context.Context, in memoryInput) (string, error) {
	mp, name, err := s.writable(in.Path)
	if err != nil {
		return "", err
	}
	if err := memory.CheckSize(mp.file, "file_text", len(in.FileText)); err != nil {
		return "", err
	}
	v := s.cfg.Project
	unlock, err := v.Lock(ctx)
	if err != nil {
		return "", err
	}
	defer unlock()
	if _, err := os.Lstat(v.Path(name)); !errors.Is(err, fs.ErrNotExist) {
		return "", toolErrorf("File %s already exists", mp.path)
	}
	m, err := s.memoryFromText(mp, name, in.FileText)
	if err != nil {
		return "", err
	}
	m.Source = "agent" // whatever the header says: the agent wrote it
	if said := s.said().Check(m.Description + "\n" + m.Body); !said.Stated {
		return s.draftCreated(mp, m, said.Reason())
	}
	if err := v.CreateLocked(m); err != nil {
		return "", err
	}
	if err := v.ReindexAfter(name); err != nil {
		return "", err
	}
	s.cfg.Log.Info("memory tool: create", "name", name)
	return "File created successfully at: " + mp.path, nil
}

// draftCreated puts a file the agent created, which the person did not
// state, in the inbox instead of the vault; the caller holds the vault's
// lock, which the inbox's writes need.
func (s *Server) draftCreated(mp memPath, m *memory.Memory, why string) (string, error) {
	inbox, err := consolidate.OpenInbox(s.cfg.StateDir)
	if err != nil {
		return "", err
	}
	if _, err := inbox.Load(m.Name); err == nil {
		return "", toolErrorf("The file %s was not created: a draft of that name waits for review in the inbox already", mp.path)
	}
	if err := inbox.Put(m); err != nil {
		return "", err
	}
	s.cfg.Log.Info("memory tool: create drafted", "name", m.Name, "why", why)
	return fmt.Sprintf("The file %s was not created in %s: it waits for review in the inbox because %s. It becomes a memory when a person approves it (mnemo approve %s).",
		mp.path, memoryRoot, why, m.Name), nil
}

// memReplace replaces the one occurrence of old_str in a file.
func (s *Server) memReplace(ctx context.Context, in memoryInput) (string, error) {
	var answer string
	proposed, err := s.edit(ctx, in.Path, func(mp memPath, content string) (string, error) {
		n := strings.Count(content, in.OldStr)
		if in.OldStr == "" || n == 0 {
			return "", toolErrorf("No replacement was performed, old_str `%s` did not appear verbatim in %s.", in.OldStr, mp.path)
		}
		if n > 1 {
			return "", toolErrorf("No replacement was performed. Multiple occurrences of old_str `%s` in lines: %s. Please ensure it is unique",
				in.OldStr, strings.Join(occurrenceLines(content, in.OldStr), ", "))
		}
		if err := s.checkEdit("The file "+mp.path, in.NewStr); err != nil {
			return "", err
		}
		pos := strings.Index(content, in.OldStr)
		next := content[:pos] + memory.AbsoluteDates(in.NewStr, s.cfg.Now()) + content[pos+len(in.OldStr):]
		changed := strings.Count(content[:pos], "\n")
		answer = "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n" + snippet(next, changed)
		return next, nil
	})
	if proposed != "" {
		return proposed, err
	}
	return answer, err
}

// occurrenceLines lists the 1-based lines where each occurrence of sub starts.
func occurrenceLines(s, sub string) []string {
	var lines []string
	for i := 0; ; i++ {
		j := strings.Index(s[i:], sub)
		if j < 0 {
			return lines
		}
		i += j
		lines = append(lines, fmt.Sprint(strings.Count(s[:i], "\n")+1))
	}
}

// snippet numbers the lines around a changed line (0-based): two before, two after.
func snippet(content string, changed int) string {
	lines := strings.Split(content, "\n")
	from, to := max(0, changed-2), min(len(lines), changed+3)
	var out []string
	for i := from; i < to; i++ {
		out = append(out, fmt.Sprintf("%6d\t%s", i+1, lines[i]))
	}
	return strings.Join(out, "\n")
}

// memInsert inserts text after a line.
func (s *Server) memInsert(ctx context.Context, in memoryInput) (string, error) {
	if in.InsertLine == nil {
		return "", toolErrorf("Missing required parameter insert_line for command insert")
	}
	proposed, err := s.edit(ctx, in.Path, func(mp memPath, content string) (string, error) {
		lines := strings.Split(content, "\n")
		at := *in.InsertLine
		if at < 0 || at > len(lines) {
			return "", toolErrorf("Invalid `insert_line` parameter: %d. It should be within the range of lines of the file: [0, %d]", at, len(lines))
		}
		if err := s.checkEdit("The file "+mp.path, in.InsertText); err != nil {
			return "", err
		}
		add := memory.AbsoluteDates(strings.TrimSuffix(in.InsertText, "\n"), s.cfg.Now())
		lines = append(lines[:at], append([]string{add}, lines[at:]...)...)
		return strings.Join(lines, "\n"), nil
	})
	if err != nil || proposed != "" {
		return proposed, err
	}
	return fmt.Sprintf("The file %s has been edited.", in.Path), nil
}

// edit changes a memory file with change, holding the vault's lock. The
// new text must be a valid memory of the same name; relative dates in what
// the edit added become absolute, and updated moves to now when the file
// records it. An edit of what the memory claims that the person did not
// state ([Server.unstated]) is not made: it is proposed for review, and
// proposed is the answer that says so.
func (s *Server) edit(ctx context.Context, path string, change func(memPath, string) (string, error)) (proposed string, err error) {
	next, v, err := s.editLocked(ctx, path, change)
	if err != nil || next == nil {
		return "", err
	}
	_, proposed, err = s.proposeChange(ctx, "project", next, v)
	return proposed, err
}

// editLocked is edit under the vault's lock; it returns the memory as the
// edit would make it, and the verdict on it, when the edit is to be
// proposed instead.
func (s *Server) editLocked(ctx context.Context, path string, change func(memPath, string) (string, error)) (*memory.Memory, provenance.Verdict, error) {
	var none provenance.Verdict
	mp, name, err := s.writable(path)
	if err != nil {
		return nil, none, err
	}
	v := s.cfg.Project
	unlock, err := v.Lock(ctx)
	if err != nil {
		return nil, none, err
	}
	defer unlock()
	if err := s.plainFile(mp, name); err != nil {
		return nil, none, err
	}
	data, err := v.ReadFile(mp.file)
	if err != nil {
		return nil, none, fileError(mp, err)
	}
	next, err := change(mp, string(data))
	if err != nil {
		return nil, none, err
	}
	if err := memory.CheckSize(mp.file, "", len(next)); err != nil {
		return nil, none, err
	}
	m, err := memory.Parse(mp.file, []byte(next))
	if err == nil {
		err = m.Validate(mp.file)
	}
	if err != nil {
		return nil, none, toolErrorf("The file %s was not edited: the result would not be a valid memory file: %v", mp.path, err)
	}
	if !m.Updated.IsZero() {
		m.Updated = s.cfg.Now()
	}
	old, err := memory.Parse(mp.file, data)
	if err != nil {
		old = &memory.Memory{} // a file no reader opens: all of the edit's text is new
	}
	if verdict, wait := s.unstated(old, m); wait {
		return m, verdict, nil
	}
	// The text was read under the lock just taken, so the edit applies to
	// the file as it is; the door checks and writes it.
	if _, err := v.UpdateLocked(name, func(cur *memory.Memory) error {
		*cur = *m
		return nil
	}); err != nil {
		return nil, none, err
	}
	if err := v.ReindexAfter(name); err != nil {
		return nil, none, err
	}
	s.cfg.Log.Info("memory tool: edit", "name", name)
	return nil, none, nil
}

// writable resolves a path the tool may write: a memory file of the vault.
func (s *Server) writable(path string) (memPath, string, error) {
	mp, err := parseMemPath(path)
	if err != nil {
		return mp, "", err
	}
	if mp.file == "" {
		return mp, "", toolErrorf("The path %s is not a file.", mp.path)
	}
	name, err := mp.name()
	return mp, name, err
}

// plainFile checks that a memory file exists and is a regular file, not a
// symlink: the tool edits files of the vault only.
func (s *Server) plainFile(mp memPath, name string) error {
	fi, err := os.Lstat(s.cfg.Project.Path(name))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &toolError{msg: fmt.Sprintf("The path %s does not exist. Please provide a valid path.", mp.path), err: fs.ErrNotExist}
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return errEscape
	case !fi.Mode().IsRegular():
		return toolErrorf("The path %s is not a file.", mp.path)
	}
	return nil
}

// memDelete forgets a memory: the file moves out of the vault, recoverable.
func (s *Server) memDelete(ctx context.Context, in memoryInput) (string, error) {
	mp, err := parseMemPath(in.Path)
	if err != nil {
		return "", err
	}
	if mp.file == "" {
		return "", toolErrorf("Cannot delete the %s directory itself", memoryRoot)
	}
	name, err := mp.name()
	if err != nil {
		return "", err
	}
	if err := s.plainFile(mp, name); errors.Is(err, fs.ErrNotExist) {
		return "", toolErrorf("The path %s does not exist", mp.path)
	} else if err != nil {
		return "", err
	}
	m, err := s.cfg.Project.Load(name)
	if err != nil {
		return "", err
	}
	if _, err := s.moveOut(ctx, found{where: "project", v: s.cfg.Project, m: m}, "deleted with the memory tool", "mcp memory delete"); err != nil {
		return "", err
	}
	return "Successfully deleted " + mp.path, nil
}

// memRename renames a memory: a new file under the new name, with the
// header's name changed to match, and the old file removed.
func (s *Server) memRename(ctx context.Context, in memoryInput) (string, error) {
	from, oldName, err := s.writable(in.OldPath)
	if err != nil {
		return "", err
	}
	to, newName, err := s.writable(in.NewPath)
	if err != nil {
		return "", err
	}
	v := s.cfg.Project
	unlock, err := v.Lock(ctx)
	if err != nil {
		return "", err
	}
	defer unlock()
	if _, err := os.Lstat(v.Path(newName)); !errors.Is(err, fs.ErrNotExist) {
		return "", toolErrorf("The destination %s already exists", to.path)
	}
	if err := s.plainFile(from, oldName); errors.Is(err, fs.ErrNotExist) {
		return "", toolErrorf("The path %s does not exist", from.path)
	} else if err != nil {
		return "", err
	}
	m, err := v.Load(oldName)
	if err != nil {
		return "", fileError(from, err)
	}
	m.Name = newName
	if err := v.CreateLocked(m); err != nil {
		return "", err
	}
	if err := v.RemoveLocked(oldName); err != nil {
		return "", err
	}
	if err := v.ReindexAfter(newName); err != nil {
		return "", err
	}
	s.cfg.Log.Info("memory tool: rename", "from", oldName, "to", newName)
	return fmt.Sprintf("Successfully renamed %s to %s", from.path, to.path), nil
}
