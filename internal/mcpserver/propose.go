package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/provenance"
)

// claimChanged reports whether next claims something old does not: its
// description or body differ, or where it came from.
func claimChanged(old, next *memory.Memory) bool {
	return old.Description != next.Description || old.Body != next.Body || old.Source != next.Source
}

// unstated returns the verdict of the person's words of the session on
// what an agent's change of old into next writes, and whether the change
// must wait for review: it changes a value of what the memory claims (a
// number, host, port, path, environment, day… as consolidation reads
// them), or where it came from, and the person did not state the lines it
// writes. A rewording or more words with the same values is the agent's
// to make (an instruction it adds is refused apart, by checkEdit). Like
// remember, a new value is the person's only when their words hold it;
// without this, update could put in a person's memory, under its
// provenance, what remember would only draft.
func (s *Server) unstated(old, next *memory.Memory) (provenance.Verdict, bool) {
	if !claimChanged(old, next) {
		return provenance.Verdict{Stated: true}, false
	}
	was, now := consolidate.NewText(old.Description+"\n"+old.Body), consolidate.NewText(next.Description+"\n"+next.Body)
	if old.Source == next.Source && was.SameValues(now) {
		return provenance.Verdict{Stated: true}, false
	}
	written := newLines(old.Description+"\n"+old.Body, next.Description+"\n"+next.Body)
	if written == "" { // only the source changed: no words of the person's state that
		return provenance.Verdict{}, true
	}
	v := s.said().Check(written)
	return v, !v.Stated
}

// newLines returns the lines of next that old does not have.
func newLines(old, next string) string {
	had := map[string]bool{}
	for l := range strings.Lines(old) {
		had[strings.TrimSpace(l)] = true
	}
	var b strings.Builder
	for l := range strings.Lines(next) {
		if t := strings.TrimSpace(l); t != "" && !had[t] {
			b.WriteString(t + "\n")
		}
	}
	return b.String()
}

// proposeChange drafts next, an agent's change of the memory of where
// that the person did not state (v says why), for review, linked to the
// memory, and returns the answer that says so.
func (s *Server) proposeChange(ctx context.Context, where string, next *memory.Memory, v provenance.Verdict) (consolidate.Outcome, string, error) {
	inbox, err := consolidate.OpenInbox(s.cfg.StateDir)
	if err != nil {
		return consolidate.Outcome{}, "", err
	}
	c := &consolidate.Consolidator{Project: s.cfg.Project, User: s.cfg.User, Inbox: inbox, Now: s.cfg.Now()}
	why := "Proposed by the agent: " + v.Reason() + "."
	o, err := c.ProposeChange(ctx, where, next, why)
	if err != nil {
		return o, "", err
	}
	s.cfg.Log.Info("change proposed", "memory", next.Name, "draft", o.Name, "why", v.Reason())
	return o, fmt.Sprintf("%s was not changed: the change waits for review in the inbox as %s, because %s. It applies when a person approves it (mnemo approve %s).",
		next.Name, o.Name, v.Reason(), o.Name), nil
}
