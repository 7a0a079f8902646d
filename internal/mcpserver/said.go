package mcpserver

import (
	"github.com/mnemo-dev/mnemo/internal/provenance"
	"github.com/mnemo-dev/mnemo/internal/redact"
)

// said is what the person said in the session the server serves: the
// prompts mnemo's user-prompt-submit hook recorded. When the agent names
// its session (Claude Code's CLAUDE_CODE_SESSION_ID), the prompts of that
// session, whenever they were typed (a resumed session's too); a stdio
// server keeps the id it was started with, so after /clear it still reads
// the old session's, and what the user says after /clear does not ground
// what the agent writes: a draft, never a wrong approval. When the agent
// does not say, the prompts of the project's sessions typed since the
// server started.
func (s *Server) said() *provenance.Said {
	p := provenance.Prompts{Dir: provenance.PromptsDir(s.cfg.StateDir)}
	var ss []provenance.Statement
	var err error
	if s.cfg.Session != "" {
		ss, err = p.Session(s.cfg.Session)
	} else {
		ss, err = p.Since(s.cfg.Started)
	}
	if err != nil {
		s.cfg.Log.Warn("read the session's prompts", "session", s.cfg.Session, "err", err)
	}
	return provenance.NewSaid(ss...)
}

// checkEdit refuses an edit by the agent whose new text gives an
// instruction the person did not give ([provenance.Instruction]): a
// memory cannot be made to carry one afterwards.
// what names the memory for the answer ("The file /memories/x.md").
func (s *Server) checkEdit(what, added string) error {
	if provenance.Instruction(added) == "" || len(redact.Find(added)) > 0 {
		return nil // a secret: the vault's door refuses it, naming the kind, never echoing it
	}
	if v := s.said().Check(added); !v.Stated {
		return toolErrorf("%s was not edited: the new text would make the memory carry an instruction, and %s. A person can make this change (mnemo edit).", what, v.Reason())
	}
	return nil
}
