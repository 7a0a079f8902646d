package extract

import (
	"context"
	"strconv"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/fence"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// A Related is a memory or draft a request names, so that the model can say
// how each candidate stands to it.
type Related struct {
	Name        string      `json:"name"`
	Description string      `json:"description"`
	Type        memory.Type `json:"type"`
	Where       string      `json:"where"` // project, user or inbox (a draft)
}

// MaxRelated bounds the memories one request names.
const MaxRelated = 24

// relations are the values of a reply's "relation".
var relations = []string{consolidate.RelationNew, consolidate.RelationSame, consolidate.RelationUpdate, consolidate.RelationContradicts}

// related returns what cfg.Related gives for d, cleaned: valid names,
// one-line descriptions (redacted: a hand-written memory may hold a
// secret), at most [MaxRelated], each name once. An error is logged.
func related(ctx context.Context, cfg Config, d *transcript.Digest) []Related {
	if cfg.Related == nil {
		return nil
	}
	rs, err := cfg.Related(ctx, d)
	if err != nil {
		cfg.Logger.Warn("extract: related memories not sent", "err", err)
		return nil
	}
	var out []Related
	seen := map[string]bool{}
	for _, r := range rs {
		if !memory.ValidName(r.Name) || seen[r.Name] || len(out) == MaxRelated {
			continue
		}
		seen[r.Name] = true
		r.Description = cfg.Redactor.String(memory.CleanLine(r.Description))
		out = append(out, r)
	}
	return out
}

// relatedFence fences the memories in a request: a vault arrives through
// git from anyone, so its text is data for the model too.
var relatedFence = fence.New("memories")

// relatedMessage lists rs for the model, or says there are none.
func relatedMessage(rs []Related) string {
	if len(rs) == 0 {
		return "The project has no memory related to this session: every candidate is new.\n\n"
	}
	var b strings.Builder
	b.WriteString("Memories the project already has (or drafts awaiting review) that this session may say again, update or contradict, as name (where, type): description:\n")
	b.WriteString(relatedFence.Open() + "\n")
	for _, r := range rs {
		where := r.Where
		if where == "inbox" {
			where = "draft"
		}
		b.WriteString(relatedFence.Escape("- "+r.Name+" ("+where+", "+string(r.Type)+"): "+r.Description) + "\n")
	}
	b.WriteString(relatedFence.Close() + "\n\n")
	return b.String()
}

// knownMemories indexes rs by name, for checking a reply's "memory". A
// name listed in two places (a project memory and a mounted vault's of
// the same name) maps to "": a reply names no place, so it is ambiguous.
func knownMemories(rs []Related) map[string]string {
	m := make(map[string]string, len(rs))
	for _, r := range rs {
		if where, ok := m[r.Name]; ok && where != r.Where {
			m[r.Name] = ""
			continue
		}
		m[r.Name] = r.Where
	}
	return m
}

// checkRelation validates a candidate's relation against the memories the
// request named: new is left empty, a relation to a name the request did
// not hold becomes new, and the note returned says so ("" when nothing
// was changed); a known name gets its place (Where).
func checkRelation(c *Candidate, known map[string]string) string {
	if c.Relation == "" || c.Relation == consolidate.RelationNew {
		c.Relation, c.Memory, c.Where = "", "", ""
		return ""
	}
	where, ok := known[c.Memory]
	if !ok || where == "" {
		why := "a memory the request did not name"
		if ok {
			why = "a name the request listed in two places"
		}
		note := "relation " + c.Relation + " to " + strconv.Quote(c.Memory) + ", " + why + ": taken as new"
		c.Relation, c.Memory, c.Where = "", "", ""
		return note
	}
	c.Where = where
	return ""
}
