package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mnemo-dev/mnemo/internal/edit"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/staleness"
)

type updateInput struct {
	Name        string   `json:"name" jsonschema:"the memory to change"`
	Description string   `json:"description,omitempty" jsonschema:"a new one-line description (the recall key)"`
	Fact        string   `json:"fact,omitempty" jsonschema:"the new body: it replaces the old one whole"`
	Content     string   `json:"content,omitempty" jsonschema:"same as fact"`
	Body        string   `json:"body,omitempty" jsonschema:"same as fact"`
	Type        string   `json:"type,omitempty" jsonschema:"a new type: user, feedback, project or reference"`
	Files       []string `json:"files,omitempty" jsonschema:"anchor the memory to these files (relative to the repository root) as they are now"`
	Why         string   `json:"why,omitempty" jsonschema:"why it changed, recorded as its provenance"`
	Confidence  *float64 `json:"confidence,omitempty" jsonschema:"a new confidence, 0 to 1"`
	Tags        []string `json:"tags,omitempty" jsonschema:"the memory's tags, replacing the old ones"`
}

type updateOutput struct {
	Name    string   `json:"name"`
	Vault   string   `json:"vault"`
	Changed []string `json:"changed"`
	Draft   string   `json:"draft,omitempty"` // the proposed change waiting for review, when the person did not state it
	Message string   `json:"message"`
}

const updateDescription = `Change an existing memory in place: its description, its body (fact replaces the old body whole), type, confidence, tags, or the files it is anchored to. Use it when a recalled memory turned out incomplete or out of date, or when remember answered "similar to X". A new description or body the user did not state in this session is not applied: it waits for review as a proposed change, and the answer says so and why. Relative dates become absolute; when the text changes, the memory is re-anchored to the current content of the files it names, so it is no longer stale. Every other header key and the file's name stay as they are.`

func (s *Server) addUpdate() {
	addTool(s.mcp, &mcp.Tool{
		Name:        "update",
		Description: updateDescription,
		Annotations: writes("Update a memory", true, true),
		InputSchema: schemaFor[updateInput](func(sc *jsonschema.Schema) {
			enum(sc, "type", typeNames...)
			bounds(sc, "confidence", 0, 1)
		}),
		OutputSchema: schemaFor[updateOutput](nil),
	}, s.update)
}

func (s *Server) update(ctx context.Context, _ *mcp.CallToolRequest, in updateInput) (*mcp.CallToolResult, updateOutput, error) {
	f, err := s.find(in.Name)
	if err != nil {
		return nil, updateOutput{}, err
	}
	if err := memory.CheckSize(f.m.Name+".md", "body", len(in.Description)+len(pick(in.Fact, in.Content, in.Body))); err != nil {
		return nil, updateOutput{}, err
	}
	if err := s.checkEdit("The memory "+f.m.Name, in.Description+"\n"+pick(in.Fact, in.Content, in.Body)); err != nil {
		return nil, updateOutput{}, err
	}
	if out, ok, err := s.proposeUpdate(ctx, f, in); err != nil {
		return nil, out, err
	} else if ok {
		return text("%s", out.Message), out, nil
	}
	// The change applies to the file as it is under the vault's lock, not
	// to what find read: an edit made meanwhile by another process stays.
	var changed []string
	errNothing := errors.New("nothing to change: pass description, fact, type, files, why, confidence or tags")
	m, err := f.v.Update(ctx, f.m.Name, func(m *memory.Memory) error {
		var err error
		if changed, err = s.applyUpdate(ctx, m, in); err != nil {
			return err
		}
		if len(changed) == 0 {
			return errNothing
		}
		return nil
	})
	out := updateOutput{Name: f.m.Name, Vault: f.where, Changed: changed}
	if err != nil {
		return nil, out, err
	}
	s.synced(ctx)
	out.Message = fmt.Sprintf("updated %s (%s)", m.Name, strings.Join(changed, ", "))
	s.cfg.Log.Info("update", "name", m.Name, "vault", f.where, "changed", changed)
	return text("%s", out.Message), out, nil
}

// proposeUpdate drafts the update for review when it changes what the
// memory claims and the person's words of the session do not state it
// ([Server.unstated]); ok reports that it did.
func (s *Server) proposeUpdate(ctx context.Context, f found, in updateInput) (out updateOutput, ok bool, err error) {
	next := f.m.Clone()
	changed, err := s.applyUpdate(ctx, next, in)
	if err != nil || len(changed) == 0 {
		return out, false, nil // the update under the lock says what is wrong
	}
	v, wait := s.unstated(f.m, next)
	if !wait {
		return out, false, nil
	}
	o, msg, err := s.proposeChange(ctx, f.where, next, v)
	if err != nil {
		return out, true, err
	}
	return updateOutput{Name: f.m.Name, Vault: f.where, Changed: changed, Draft: o.Name, Message: msg}, true, nil
}

// applyUpdate changes m as the call asks, settled as every saved change is
// ([edit.Settle]: dates made absolute, a new type's review date), and
// returns the fields it changed.
func (s *Server) applyUpdate(ctx context.Context, m *memory.Memory, in updateInput) ([]string, error) {
	before := m.Clone()
	if d := strings.Join(strings.Fields(in.Description), " "); d != "" {
		if n := utf8.RuneCountInString(d); n > memory.MaxDescriptionLen {
			return nil, fmt.Errorf("description is %d characters, at most %d: say what the memory helps with, in one line", n, memory.MaxDescriptionLen)
		}
		m.Description = d
	}
	if body := strings.TrimSpace(pick(in.Fact, in.Content, in.Body)); body != "" {
		m.Body = body + "\n"
	}
	if in.Type != "" {
		if !memory.Type(in.Type).Valid() {
			return nil, fmt.Errorf("type %q is not one of user, feedback, project, reference", in.Type)
		}
		m.Type = memory.Type(in.Type)
	}
	if in.Why != "" {
		m.Why = strings.TrimSpace(in.Why)
	}
	if in.Confidence != nil {
		m.Confidence = *in.Confidence
	}
	edit.Settle(before, m, s.cfg.Now())
	var changed []string
	for _, c := range []struct {
		field string
		ok    bool
	}{
		{"description", m.Description != before.Description},
		{"body", m.Body != before.Body},
		{"type", m.Type != before.Type},
		{"why", m.Why != before.Why},
		{"confidence", m.Confidence != before.Confidence},
		{"tags", in.Tags != nil},
	} {
		if c.ok {
			changed = append(changed, c.field)
		}
	}
	if in.Tags != nil {
		m.Tags = in.Tags
	}
	if len(in.Files) > 0 || len(changed) > 0 {
		if err := s.reanchor(ctx, m, in.Files); err != nil {
			return nil, err
		}
		if len(in.Files) > 0 {
			changed = append(changed, "anchors")
		}
	}
	return changed, nil
}

// reanchor anchors m to files, or when none are given to the files it was
// anchored to that still exist: an updated memory describes them as they
// are now.
func (s *Server) reanchor(ctx context.Context, m *memory.Memory, files []string) error {
	if s.cfg.Root == "" {
		return nil
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, s.repoPath(f))
	}
	if len(files) == 0 {
		var old []string
		for _, a := range m.Anchors.Files {
			old = append(old, a.Path)
		}
		paths = staleness.ExistingPaths(s.cfg.Root, old)
		if len(paths) == 0 {
			return nil
		}
	}
	a, err := staleness.Anchor(s.cfg.Root, s.cfg.Root, s.cfg.Head(ctx), paths)
	if err != nil {
		return err
	}
	m.Anchors = a
	return nil
}
